# Typed stubs for the part of jaxlib that jaxtyped's runtime uses
# (src/jaxtyped/_src/runtime/xla.py). jaxlib 0.8-0.10 ships no stubs for
# its nanobind modules; these were written against jaxlib 0.10.2's
# behaviour (shared/notes/jaxlib-0.10-facts.md) and cover only what we call.
