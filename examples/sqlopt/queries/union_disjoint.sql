-- Orders labelled by size: the branches cannot share a row (the label differs) and each lists an
-- order once (order_id is the key), yet UNION deduplicates all of them.
SELECT o.order_id, o.customer_id, o.amount, 'large' AS size_class FROM orders o WHERE o.amount >= 200
UNION
SELECT o.order_id, o.customer_id, o.amount, 'small' AS size_class FROM orders o WHERE o.amount < 200
