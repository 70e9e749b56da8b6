-- Revenue per channel and the return count, each a scan of its own.
SELECT
  (SELECT SUM(amount) FROM orders WHERE channel = 'online') AS online_revenue,
  (SELECT SUM(amount) FROM orders WHERE channel = 'store') AS store_revenue,
  (SELECT SUM(amount) FROM orders WHERE channel = 'phone') AS phone_revenue,
  (SELECT AVG(quantity) FROM orders WHERE channel = 'online') AS online_quantity,
  (SELECT COUNT(*) FROM orders WHERE status = 'returned') AS returns
