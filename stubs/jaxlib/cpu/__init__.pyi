# jaxlib.cpu: the CPU kernels jaxlib ships as XLA custom-call targets.
