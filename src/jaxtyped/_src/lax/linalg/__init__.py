"""Linear-algebra primitives (layer L4): decompositions and solvers that
XLA on CPU runs through jaxlib's LAPACK kernels. ``base`` holds what they
share; each other module owns one family of primitives."""
