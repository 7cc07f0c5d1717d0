-- The checkout of bench/commerce as a team would build it on PostgreSQL: the same records and
-- the same secondary indexes as Souk's store keeps for a retail checkout (order, its lines and
-- lifecycle event, payment and its event, audit entries, notification and unread count, the
-- product's stock, the emptied cart, the request id's idempotency record).
CREATE TABLE products (
    id bigint PRIMARY KEY, marketplace_id uuid NOT NULL, name text NOT NULL, price bigint NOT NULL,
    stock int NOT NULL, available boolean NOT NULL, archived boolean NOT NULL DEFAULT false,
    version bigint NOT NULL DEFAULT 1, update_time timestamptz NOT NULL DEFAULT now());
CREATE INDEX products_by_price ON products (marketplace_id, price) WHERE available AND NOT archived;
CREATE INDEX products_by_name ON products (marketplace_id, lower(name));

CREATE TABLE carts (
    account_id bigint PRIMARY KEY, marketplace_id uuid NOT NULL, lines jsonb NOT NULL,
    version bigint NOT NULL DEFAULT 1, update_time timestamptz NOT NULL DEFAULT now());

CREATE TABLE orders (
    id uuid PRIMARY KEY, marketplace_id uuid NOT NULL, order_number text NOT NULL, customer_id bigint NOT NULL,
    status smallint NOT NULL, subtotal bigint NOT NULL, tax bigint NOT NULL, shipping bigint NOT NULL, total bigint NOT NULL,
    address jsonb NOT NULL, payment_id uuid NOT NULL, version bigint NOT NULL DEFAULT 1,
    create_time timestamptz NOT NULL DEFAULT now(), update_time timestamptz NOT NULL DEFAULT now());
CREATE UNIQUE INDEX orders_by_number ON orders (marketplace_id, order_number);
CREATE INDEX orders_by_status ON orders (marketplace_id, status, create_time);
CREATE INDEX orders_by_customer ON orders (marketplace_id, customer_id, create_time);
CREATE SEQUENCE order_numbers;

CREATE TABLE order_lines (
    order_id uuid NOT NULL REFERENCES orders, line smallint NOT NULL, product_id bigint NOT NULL, name text NOT NULL,
    unit_price bigint NOT NULL, quantity int NOT NULL, line_total bigint NOT NULL, PRIMARY KEY (order_id, line));

CREATE TABLE payments (
    id uuid PRIMARY KEY, marketplace_id uuid NOT NULL, order_id uuid NOT NULL, payer_id bigint NOT NULL,
    amount bigint NOT NULL, currency char(3) NOT NULL, method smallint NOT NULL, status smallint NOT NULL,
    card_brand text, card_last4 char(4), version bigint NOT NULL DEFAULT 1,
    create_time timestamptz NOT NULL DEFAULT now(), update_time timestamptz NOT NULL DEFAULT now());
CREATE INDEX payments_by_payer ON payments (marketplace_id, payer_id, create_time);
CREATE INDEX payments_by_status ON payments (marketplace_id, status, create_time);
CREATE INDEX payments_by_order ON payments (order_id);

-- Each record's lifecycle events, with the record as the change left it (for resumed streams).
CREATE TABLE lifecycle_events (
    subject_id uuid NOT NULL, sequence bigint NOT NULL, state smallint NOT NULL, record jsonb NOT NULL,
    create_time timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (subject_id, sequence));

CREATE TABLE audit_entries (
    id bigserial PRIMARY KEY, marketplace_id uuid NOT NULL, subject_id uuid NOT NULL, action text NOT NULL,
    actor_id bigint NOT NULL, request_id text NOT NULL, create_time timestamptz NOT NULL DEFAULT now());
CREATE INDEX audit_by_subject ON audit_entries (subject_id, create_time);
CREATE INDEX audit_by_marketplace ON audit_entries (marketplace_id, create_time);

CREATE TABLE notifications (
    id uuid PRIMARY KEY, marketplace_id uuid NOT NULL, account_id bigint NOT NULL, subject_id uuid NOT NULL,
    title text NOT NULL, body text NOT NULL, read boolean NOT NULL DEFAULT false,
    create_time timestamptz NOT NULL DEFAULT now());
CREATE INDEX notifications_by_account ON notifications (account_id, create_time);
CREATE TABLE unread_counts (account_id bigint PRIMARY KEY, unread int NOT NULL);

CREATE TABLE idempotency_keys (
    marketplace_id uuid NOT NULL, account_id bigint NOT NULL, request_id text NOT NULL, fingerprint bytea NOT NULL,
    response jsonb NOT NULL, create_time timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (marketplace_id, account_id, request_id));
