-- The transaction facets and the monthly activity are reads of a player's data too: they are audited.
ALTER TYPE "audit_operation" ADD VALUE 'transaction_facets';
ALTER TYPE "audit_operation" ADD VALUE 'monthly_activity';
