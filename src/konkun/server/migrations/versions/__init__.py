"""The revisions of the konkun schema, oldest first (Alembic reads them as scripts)."""
