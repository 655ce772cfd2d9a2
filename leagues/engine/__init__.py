"""The league's pure rules: plain Python over frozen dataclasses, no Django.

``weeks``: a week's points (the first games counted, a declared bye), the dropped worst weeks
and the league table; ``escalation``: what a week's list must keep of the week before."""
