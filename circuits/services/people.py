"""Who is who: a key is a username when an account has it, else a name as typed; case and
surrounding spaces are ignored when keys are compared."""
from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model

from circuits.models import Circuit, Person


def norm(key: str) -> str:
    return " ".join(str(key).split()).casefold()


def root(person: Person) -> Person:
    while person.merged_into_id is not None:
        person = person.merged_into
    return person


def people_for_keys(circuit: Circuit, keys: Iterable[str],
                    names: dict[str, str] | None = None) -> dict[str, Person]:
    """norm -> the (root) person of each key, created when new (named from ``names`` by key,
    else the key); a key naming an account (its username, whatever the case) becomes that
    account's person. At most four queries for any number of keys."""
    wanted = {norm(k): str(k).strip() for k in keys}
    wanted.pop("", None)
    found = {p.norm: p for p in Person.objects.filter(circuit=circuit, norm__in=list(wanted))}
    missing = [n for n in wanted if n not in found]
    if missing:
        users = {}
        for user in get_user_model().objects.filter(username__in=[wanted[n] for n in missing]):
            users[norm(user.username)] = user
        lowered = [n for n in missing if n not in users]
        if lowered:  # accounts whose username differs in case only
            from django.db.models import Q
            query = Q()
            for n in lowered:
                query |= Q(username__iexact=wanted[n])
            for user in get_user_model().objects.filter(query):
                users.setdefault(norm(user.username), user)
        new = []
        for n in missing:
            user = users.get(n)
            key = user.username if user else wanted[n]
            name = (names or {}).get(n) or key
            new.append(Person(circuit=circuit, key=key, norm=n, name=name[:150], user=user))
        Person.objects.bulk_create(new, batch_size=500)
        found.update({p.norm: p for p in Person.objects.filter(circuit=circuit, norm__in=missing)})
    return {n: _root_of(p, found) for n, p in found.items()}


def _root_of(person: Person, found: dict[str, Person]) -> Person:
    return root(person) if person.merged_into_id is not None else person


def roots(circuit: Circuit) -> dict[int, int]:
    """Every person id of the circuit -> the id of the person it counts as (itself, unless merged)."""
    links = dict(Person.objects.filter(circuit=circuit).values_list("pk", "merged_into_id"))
    resolved = {}
    for pk in links:
        current, seen = pk, 0
        while links.get(current) is not None and seen < 100:
            current, seen = links[current], seen + 1
        resolved[pk] = current
    return resolved
