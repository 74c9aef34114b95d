# Session 35's queue helpers: session 34's (ev, train), its configs read from state/session35.
STATE=state/session35
. state/session34/lib.sh
