import SoukMessages

/// What one account may see of another, declared once (common.proto, OTHER PARTIES and PHONES):
/// every summary of another party and every phone shown passes through here.
public enum Parties {
    /// The name shown of another party: "Sara K." (given name and the family name's initial), or
    /// the given name alone in laundry marketplaces, which never show a family name.
    public static func displayName(given: String, family: String, vertical: SoukV1.Vertical) -> String {
        guard vertical != .laundry, let initial = family.first else { return given }
        return given.isEmpty ? "\(initial)." : "\(given) \(initial)."
    }

    /// An account as another party sees it: no e-mail address, no phone.
    public static func summary(of account: SoukV1.Account, vertical: SoukV1.Vertical) -> SoukV1.PersonSummary {
        SoukV1.PersonSummary(
            accountID: account.id,
            displayName: displayName(given: account.givenName, family: account.familyName, vertical: vertical),
            avatarMediaID: account.avatarMediaID, rating: account.rating)
    }

    /// Who looks at an order's delivery address.
    public enum AddressViewer: Sendable {
        /// The order's customer, or an admin or operator of its marketplace.
        case customerOrAdmin
        /// The order's provider or its courier.
        case providerOrCourier
        /// Anyone else.
        case other
    }

    /// Whether `viewer` sees the phone on an order's delivery address: the provider and the
    /// courier only while the order is active; nobody else but its customer and the admins.
    public static func showsAddressPhone(to viewer: AddressViewer, orderIsActive: Bool) -> Bool {
        switch viewer {
        case .customerOrAdmin: true
        case .providerOrCourier: orderIsActive
        case .other: false
        }
    }

    /// `address` as `viewer` may see it: the phone cleared where the rule hides it.
    public static func address(_ address: SoukV1.Address, for viewer: AddressViewer, orderIsActive: Bool) -> SoukV1.Address {
        guard !showsAddressPhone(to: viewer, orderIsActive: orderIsActive) else { return address }
        var shown = address
        shown.phone = ""
        return shown
    }
}
