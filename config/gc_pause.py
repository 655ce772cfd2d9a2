"""Keep Python's cyclic garbage collector out of the way of a burst of allocations.

`gc_paused`: over a burst whose objects all die together (pairing a round).

Pairing a 1,024-player round builds some 100,000 short-lived containers (dice logs, games,
their JSON, the answer). With the collector on, young collections promote them while they are
still in use, and the promotions set off full collections of the whole process heap: one or
two per request, 40-100 ms each on a 2-core machine (issue #15). Paused, they are freed by
reference counting when the request drops them, and nothing is promoted. Cycles made meanwhile
wait for the next collection after the pause.

`young_objects_only`: over a mission-pack build, whose objects do not all die together.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection inside the block; a collector already off (by a caller, or by an
    overlapping block in another thread) is left as found."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def young_objects_only() -> Iterator[None]:
    """Run a build with the cyclic garbage collector looking only at objects made during it.

    Layout makes hundreds of thousands of short-lived objects; each full collection would also
    walk the whole process (Django, WeasyPrint, the fonts: a third of a pack's time). Freezing
    what exists leaves it out of collections until the build ends, when one collection of the
    build's own objects frees its garbage (else the next build would freeze it for good);
    nested uses freeze once.
    """
    global _FROZEN
    outermost = _FROZEN == 0
    if outermost:
        gc.freeze()
    _FROZEN += 1
    try:
        yield
    finally:
        _FROZEN -= 1
        if outermost:
            gc.collect()
            gc.unfreeze()


_FROZEN = 0
