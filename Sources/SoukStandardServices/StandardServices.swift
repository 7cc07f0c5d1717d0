// The standard gRPC services souk-server offers besides its own API:
// - HealthService: grpc.health.v1.Health (Check, Watch)
// - ReflectionService: grpc.reflection.v1 and v1alpha ServerReflection, over the embedded descriptor set
// - InteropTestService and UnimplementedService: grpc.testing, for gRPC's interoperability test clients
