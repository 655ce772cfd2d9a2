"""Epic 40,000 (seed 001): played as map campaigns (campaigns/), with its stateless tools API."""
