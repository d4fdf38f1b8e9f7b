-- +goose Up
-- The console lists an owner's devices except those reachable only through
-- the open API. With this index the owner's list walks it in id order and
-- counts from it alone; the plain owner index would visit every device row
-- to read api_only.
CREATE INDEX devices_owner_console ON devices (owner_id, id) WHERE NOT api_only;

-- +goose Down
DROP INDEX devices_owner_console;
