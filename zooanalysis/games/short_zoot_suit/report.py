"""Short Zoot Suit's report sections (placeholder)."""


def report_sections(run) -> list:
    """No sections yet."""
    return []
