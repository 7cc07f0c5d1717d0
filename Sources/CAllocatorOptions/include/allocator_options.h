#ifndef SOUK_ALLOCATOR_OPTIONS_H
#define SOUK_ALLOCATOR_OPTIONS_H

/// The options jemalloc starts with in `souk-server`.
extern const char *malloc_conf;

#endif
