import SoukStore

/// A service that places orders from carts (the shops' and food delivery's `Checkout`), with
/// the steps every checkout shares (`placeFromCart`).
package protocol OrderPlacing {
    var commerce: Commerce { get }
    var store: Store { get }
}
