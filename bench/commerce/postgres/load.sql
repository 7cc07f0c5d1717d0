-- 1,000 wines with ample stock and one cart per customer (:customers), as Souk's benchmark shop has.
INSERT INTO products (id, marketplace_id, name, price, stock, available)
SELECT n, '00000000-0000-4000-8000-000000000001', 'Wine ' || n, 1000 + (n * 7919) % 99000, 1000000000, true
FROM generate_series(1, 1000) AS n;
INSERT INTO carts (account_id, marketplace_id, lines)
SELECT n, '00000000-0000-4000-8000-000000000001', '[]' FROM generate_series(1, :customers) AS n;
INSERT INTO unread_counts SELECT n, 0 FROM generate_series(1, :customers) AS n;
VACUUM ANALYZE;
