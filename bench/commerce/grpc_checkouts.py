"""Souk's side of the checkout comparison: checkouts through gRPC (grpcio's asyncio client) against
a running souk-server, each of a customer whose cart holds one line (two bottles of one of 1,000
wines), every commit fsynced, paid one of two ways:
- `cash`: cash on delivery, a PENDING payment; no provider is called, so the checkout is one
  transaction, the same work as PostgreSQL's (postgres/checkout.sql).
- `card`: a test card through the simulated gateway (an outside provider): the authorization
  before the transaction (its journal fsynced), the capture after the answer.
One round per client count and payment: the carts of the round are filled first (not measured),
then CLIENTS concurrent callers check out CHECKOUTS carts between them.
Prints one line per round: `souk PAYMENT CLIENTS CHECKOUTS_PER_S FAILED`. With $PEER_COMMAND set,
runs it after each round with `{clients}` and `{payment}` replaced by the round's (the peer's turn
at the same concurrency) and prints what it prints.

Usage: grpc_checkouts.py ADDRESS OPERATOR_EMAIL OPERATOR_PASSWORD CHECKOUTS PAYMENTS CLIENTS...
(PAYMENTS: `cash`, `card` or `cash,card`)
"""
import asyncio
import os
import subprocess
import pathlib
import sys
import time
import uuid

import grpc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "e2e"))
from souk_protos import Stub, enum, message  # noqa: E402


class Pb:
    def __getattr__(self, name):
        return message(f"souk.v1.{name}")


pb = Pb()
Duration = message("google.protobuf.Duration")
Role = enum("souk.v1.Role")
Vertical = enum("souk.v1.Vertical")
Category = enum("souk.v1.ProductCategory")
PaymentMethod = enum("souk.v1.PaymentMethod")
PASSWORD = "Bench-pass-1"


def md(token):
    return (("authorization", f"Bearer {token}"),)


def rid():
    return str(uuid.uuid4())


async def gather_limited(items, concurrency, body):
    """Runs `body(item)` for every item, at most `concurrency` at a time."""
    queue = list(items)

    async def lane():
        while queue:
            await body(queue.pop())
    await asyncio.gather(*(lane() for _ in range(concurrency)))


async def main(address, operator_email, operator_password, checkouts, payments, client_counts):
    async with grpc.aio.insecure_channel(address) as channel:
        accounts = Stub(channel, "souk.v1.Accounts")
        marketplaces = Stub(channel, "souk.v1.Marketplaces")
        catalog = Stub(channel, "souk.v1.Catalog")
        carts = Stub(channel, "souk.v1.Carts")
        orders = Stub(channel, "souk.v1.Orders")

        operator = (await accounts.Login(pb.LoginRequest(email=operator_email, password=operator_password))).access_token
        # Chateau Du Nox's money rules; thousands of customers sign in from this one address, so its
        # per-address sign-in limit is raised as an operator does for a load test.
        settings = pb.MarketplaceSettings(
            accounts=pb.AccountSettings(rate_limits=pb.AuthRateLimits(
                sign_in_per_address=pb.RateLimit(count=100_000, window=Duration(seconds=60)))),
            commerce=pb.CommerceSettings(
                tax_rate_bps=2600, shipping_fee=pb.Money(amount_minor=5990, currency_code="MYR"), max_quantity_per_cart_line=12,
                accepted_payment_methods=[PaymentMethod.PAYMENT_METHOD_CARD, PaymentMethod.PAYMENT_METHOD_CASH]))
        shop = await marketplaces.CreateMarketplace(pb.CreateMarketplaceRequest(request_id=rid(), marketplace=pb.Marketplace(
            slug=f"bench-{uuid.uuid4().hex[:8]}", display_name="Bench Cellar", vertical=Vertical.VERTICAL_RETAIL,
            currency_code="MYR", settings=settings)), metadata=md(operator))

        async def account(email, roles=()):
            await accounts.CreateAccount(pb.CreateAccountRequest(
                marketplace_id=shop.id, request_id=rid(), email=email, initial_password=PASSWORD, given_name="Bench",
                roles=list(roles)), metadata=md(operator))
            return (await accounts.Login(pb.LoginRequest(marketplace_id=shop.id, email=email, password=PASSWORD))).access_token

        staff = await account("staff@bench.example", [Role.ROLE_PROVIDER])
        products = []

        async def wine(n):
            product = await catalog.CreateProduct(pb.CreateProductRequest(marketplace_id=shop.id, request_id=rid(), product=pb.Product(
                name=f"Bench Wine {n}", category=Category.PRODUCT_CATEGORY_RED,
                price=pb.Money(amount_minor=1000 + (n * 7919) % 99000, currency_code="MYR"), stock=1_000_000_000, available=True)),
                metadata=md(staff))
            products.append(product.id)
        await gather_limited(range(1000), 16, wine)

        customers = [None] * checkouts

        async def customer(n):
            customers[n] = await account(f"customer{n}@bench.example")
        await gather_limited(range(len(customers)), 16, customer)
        print(f"# {len(products)} wines and {len(customers)} signed-in customers", file=sys.stderr, flush=True)

        rounds = [(clients, payment) for clients in client_counts for payment in payments]
        for round_number, (clients, payment) in enumerate(rounds):
            method = pb.PaymentMethodInput(cash=pb.CashOnDelivery()) if payment == "cash" else pb.PaymentMethodInput(card_token="tok_visa")
            each = checkouts // clients
            count = clients * each

            async def fill(n):
                await carts.AddCartLine(pb.AddCartLineRequest(
                    marketplace_id=shop.id, request_id=rid(), item_id=products[(n * 7919 + round_number) % len(products)],
                    quantity=2), metadata=md(customers[n]))
            await gather_limited(range(count), 64, fill)
            failed = 0

            async def checkout(worker):
                nonlocal failed
                for n in range(worker * each, (worker + 1) * each):
                    try:
                        await orders.Checkout(pb.CheckoutRequest(
                            marketplace_id=shop.id, request_id=rid(), address_confirmed=True,
                            address=pb.AddressChoice(address=pb.Address(line1="1 Jalan Bench", city="Kuala Lumpur", country_code="MY")),
                            payment=method), metadata=md(customers[n]))
                    except grpc.aio.AioRpcError as error:
                        failed += 1
                        if failed == 1:
                            print(f"# checkout failed: {error.code()} {error.details()}", file=sys.stderr, flush=True)
            start = time.monotonic()
            await asyncio.gather(*(checkout(w) for w in range(clients)))
            elapsed = time.monotonic() - start
            print(f"souk {payment} {clients} {(count - failed) / elapsed:.1f} {failed}", flush=True)
            if os.environ.get("PEER_COMMAND"):
                command = os.environ["PEER_COMMAND"].replace("{clients}", str(clients)).replace("{payment}", payment)
                subprocess.run(command, shell=True, check=True)


if __name__ == "__main__":
    address, email, password, checkouts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    payments = sys.argv[5].split(",")
    if not payments or any(p not in ("cash", "card") for p in payments):
        sys.exit(f"PAYMENTS is cash, card or cash,card, not {sys.argv[5]!r}")
    asyncio.run(main(address, email, password, checkouts, payments, [int(c) for c in sys.argv[6:]]))
