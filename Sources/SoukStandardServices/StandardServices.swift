// Health, reflection and interop test services (see the module README).
