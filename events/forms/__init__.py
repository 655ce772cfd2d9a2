"""Forms of the player site; they only shape input, the league services decide. By what they
serve: registration (``registration``), the growable rows lists are typed in (``rows``), a
chart list's units and roster imports (``lists``), Warhammer Battle units (``whfb_units``) and
Urban War commandos (``commandos``)."""
