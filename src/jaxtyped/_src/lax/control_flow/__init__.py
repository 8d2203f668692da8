"""Structured control flow: cond, switch, while_loop, fori_loop, scan, map (layer L4)."""
