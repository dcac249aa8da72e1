"""White Maiden: rules engine, content and exact dice odds (pure Python, no Django)."""
