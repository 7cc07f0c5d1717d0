import SoukTesting

/// Identity's tests run on the shared harness with identity alone mounted.
typealias IdentityFixture = DomainHarness
