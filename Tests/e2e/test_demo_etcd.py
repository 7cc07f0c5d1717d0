"""`souk-server --store etcd://... --demo` on a cluster with etcd's default limits (128 operations
per transaction): the demo data is written a record per store transaction, so every demo login
signs in and every marketplace serves its catalog; started again with `--demo` on the same store,
the server adds nothing (the same records, none twice)."""
import grpc

from conftest import DEMO_MARKETPLACES, DEMO_ROLES, IdentityServer, stop_cleanly
from souk_identity import TIMEOUT, Api, login_party, pb
from souk_nodes import etcd  # noqa: F401  (the module's cluster)
from souk_protos import Stub

# etcd's own default --max-txn-ops (souk_nodes.etcd starts the members with it).
ETCD_MAX_TXN_OPS = 128


def served_demo_data(server: IdentityServer, roles=DEMO_ROLES) -> dict:
    """Every demo login of `roles` signs in; what each marketplace's demo admin lists: the names
    of its services, wines, dorms, published listings, restaurants and menu items."""
    with server.channel() as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        api = Api(channel)
        laundry, rentals = Stub(channel, "souk.v1.Laundry"), Stub(channel, "souk.v1.Rentals")
        for marketplace in DEMO_MARKETPLACES:
            for role in roles:
                assert login_party(api, server.demo_login(marketplace, role)).me().email == server.demo_login(marketplace, role).email
        admins = {m: login_party(api, server.demo_login(m, "admin")) for m in DEMO_MARKETPLACES}

        def listed(marketplace, call, request_type, items, name, **fields):
            response = call(request_type(marketplace_id=server.marketplace_id(marketplace), page_size=100, **fields),
                            metadata=admins[marketplace].md(), timeout=TIMEOUT)
            assert not response.next_page_token, "more than a page: count every page"
            return sorted(name(item) for item in getattr(response, items))

        data = {
            "Aqua Hub services": listed("Aqua Hub", api.catalog.ListServices, pb.ListServicesRequest, "services", lambda s: s.name),
            "Chateau Du Nox wines": listed("Chateau Du Nox", api.catalog.ListProducts, pb.ListProductsRequest, "products",
                                           lambda p: p.name),
            "Drip 'n Dash dorms": listed("Drip 'n Dash", laundry.ListDorms, pb.ListDormsRequest, "dorms", lambda d: (d.campus, d.name)),
            "MARA listings": listed("MARA", rentals.SearchListings, pb.SearchListingsRequest, "listings", lambda r: r.listing.title),
        }
        restaurants = listed("DineSwift", api.catalog.ListRestaurants, pb.ListRestaurantsRequest, "restaurants",
                             lambda r: (r.restaurant.name, r.restaurant.id))
        data["DineSwift restaurants"] = [name for name, _ in restaurants]
        for name, restaurant_id in restaurants:
            data[f"DineSwift menu of {name}"] = listed(
                "DineSwift", api.catalog.ListMenuItems, pb.ListMenuItemsRequest, "menu_items", lambda i: (i.section, i.name),
                restaurant_id=restaurant_id)
        return data


def test_the_demo_loads_on_a_stock_etcd_cluster_and_loading_it_again_adds_nothing(etcd):
    first = IdentityServer(60, "--store", etcd)
    try:
        loaded = served_demo_data(first)
    finally:
        stop_cleanly(first)
    for what, names in loaded.items():
        assert names, f"{what}: none served"
        assert len(set(names)) == len(names), f"{what}: some twice: {names}"
    assert len(loaded["Aqua Hub services"]) == 5
    assert len(loaded["Chateau Du Nox wines"]) == 10
    assert len(loaded["Drip 'n Dash dorms"]) == 14
    assert len(loaded["DineSwift restaurants"]) == 3

    # The same store, the demo loaded again at start: the same marketplaces (the logins print
    # the same ids) and the same records.
    second = IdentityServer(60, "--store", etcd)
    try:
        assert second.demo == first.demo
        assert served_demo_data(second, roles=("admin",)) == loaded
    finally:
        stop_cleanly(second)
