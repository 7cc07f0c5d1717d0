import SoukStore

/// A service that places orders from carts (the shops' and food delivery's `Checkout`), with
/// the steps every checkout shares (`placeFromCart`): the shared orders' API for checkouts.
package protocol OrderPlacing {
    var commerce: Commerce { get }
    var store: Store { get }
}
