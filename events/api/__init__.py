"""API of events (api-v1), by resource: tournaments and their status (``tournaments``),
registered players and their lists (``players``), rounds (``rounds``), games and their results
(``games``), standings (``standings``); the helpers they and other apps share (``common``)."""
