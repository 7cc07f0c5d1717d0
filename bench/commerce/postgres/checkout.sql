-- One checkout (pgbench script): a customer's cart of one product (two bottles) becomes an order
-- in one transaction, as Souk's Checkout does: read and lock the cart and the product, take the
-- stock, write the order with its line, the payment, both lifecycle events with their records,
-- two audit entries, the notification and its unread count, empty the cart, and keep the request
-- id's response. With -D cash=1 the payment is cash on delivery (PENDING), as Souk's cash
-- checkout stores it: the same work on both sides. With -D cash=0 it is a SUCCESSFUL card payment
-- row, but no provider is called here, where Souk's card checkout calls the simulated gateway
-- (authorization before the transaction, capture after).
\set customer random(1, :customers)
\set product random(1, 1000)
BEGIN;
SELECT lines FROM carts WHERE account_id = :customer FOR UPDATE;
SELECT price FROM products WHERE id = :product AND available AND NOT archived FOR UPDATE \gset
UPDATE products SET stock = stock - 2, version = version + 1, update_time = now() WHERE id = :product;
SELECT gen_random_uuid() AS order_id, gen_random_uuid() AS payment_id, nextval('order_numbers') AS number \gset
INSERT INTO orders (id, marketplace_id, order_number, customer_id, status, subtotal, tax, shipping, total, address, payment_id)
VALUES (:order_id::uuid, '00000000-0000-4000-8000-000000000001', 'CDN-' || :number::text, :customer, 1, 2 * :price, (2 * :price * 2600) / 10000,
        5990, 2 * :price + (2 * :price * 2600) / 10000 + 5990,
        '{"line1": "1 Jalan Bench", "city": "Kuala Lumpur", "country_code": "MY"}', :payment_id::uuid);
INSERT INTO order_lines VALUES (:order_id::uuid, 0, :product, 'Wine', :price, 2, 2 * :price);
-- Methods and statuses as payments.proto numbers them (card 1, cash 4; pending 1, successful 3).
\if :cash
INSERT INTO payments (id, marketplace_id, order_id, payer_id, amount, currency, method, status, card_brand, card_last4)
VALUES (:payment_id::uuid, '00000000-0000-4000-8000-000000000001', :order_id::uuid, :customer, 2 * :price, 'MYR', 4, 1, NULL, NULL);
INSERT INTO lifecycle_events VALUES
    (:order_id::uuid, 1, 1, '{"status": "PENDING"}'), (:payment_id::uuid, 1, 1, '{"status": "PENDING"}');
INSERT INTO audit_entries (marketplace_id, subject_id, action, actor_id, request_id) VALUES
    ('00000000-0000-4000-8000-000000000001', :order_id::uuid, 'order.created', :customer, 'checkout-' || :order_id::text),
    ('00000000-0000-4000-8000-000000000001', :payment_id::uuid, 'payment.created', :customer, 'checkout-' || :order_id::text);
\else
INSERT INTO payments (id, marketplace_id, order_id, payer_id, amount, currency, method, status, card_brand, card_last4)
VALUES (:payment_id::uuid, '00000000-0000-4000-8000-000000000001', :order_id::uuid, :customer, 2 * :price, 'MYR', 1, 3, 'visa', '4242');
INSERT INTO lifecycle_events VALUES
    (:order_id::uuid, 1, 1, '{"status": "PENDING"}'), (:payment_id::uuid, 1, 3, '{"status": "SUCCESSFUL"}');
INSERT INTO audit_entries (marketplace_id, subject_id, action, actor_id, request_id) VALUES
    ('00000000-0000-4000-8000-000000000001', :order_id::uuid, 'order.created', :customer, 'checkout-' || :order_id::text),
    ('00000000-0000-4000-8000-000000000001', :payment_id::uuid, 'payment.charged', :customer, 'checkout-' || :order_id::text);
\endif
INSERT INTO notifications (id, marketplace_id, account_id, subject_id, title, body)
VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', :customer, :order_id::uuid, 'Order placed',
        'We received your order and payment; we will tell you when it ships.');
UPDATE unread_counts SET unread = unread + 1 WHERE account_id = :customer;
UPDATE carts SET lines = '[]', version = version + 1, update_time = now() WHERE account_id = :customer;
INSERT INTO idempotency_keys VALUES ('00000000-0000-4000-8000-000000000001', :customer, 'checkout-' || :order_id::text, '\x00',
        jsonb_build_object('order_id', :order_id::text));
COMMIT;
