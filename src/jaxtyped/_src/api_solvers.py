"""``lax.custom_root`` and ``lax.custom_linear_solve``: solvers with
implicit derivatives (layer L5, built on custom_jvp and custom_vjp).

Note [implicit differentiation]: the solvers are treated as black boxes;
only ``f`` (for a root) and ``matvec`` (for a linear system) are
differentiated. Both are closure-converted first: traced once into a
jaxpr whose closed-over values (the parameters one differentiates with
respect to, possibly tracers of an outer transformation) become explicit
arguments of a ``custom_jvp`` function.

- root ``x*`` of ``f(θ, x) = 0``: ``dx* = -tangent_solve(∂f/∂x, ∂f/∂θ dθ)``;
- solution of ``A(θ) x = b``: ``dx = solve(A, db - (∂A/∂θ dθ) x)``. That
  solve is linear in its right-hand side and is a ``custom_vjp`` function
  whose backward pass is ``transpose_solve`` on the transposed operator
  (``solve`` itself when ``symmetric``), so ``grad`` never differentiates
  through the user's solver (an iterative loop has no transpose).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar, cast, final, overload

from typing_extensions import override

from jaxtyped._src.api import jvp
from jaxtyped._src.api_grad import vjp
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.lax.control_flow.common import evaluate_compiled
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import batch_jaxpr, consts_as_invars
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.arithmetic import neg, stop_gradient, sub
from jaxtyped._src.lax.structural import bdim_to_front, instantiate, zeros
from jaxtyped._src.lax.util import leaf_as_array, named_leaves, short_types, zero_tangents
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten

__all__ = ["custom_root", "custom_linear_solve", "LinearSolve"]

X = TypeVar("X")
Aux = TypeVar("Aux")
T = TypeVar("T")


def _flat_arrays(tree: object, root: str, where: str) -> tuple[list[Array], PyTreeDef]:
    leaves, names, treedef = named_leaves(tree, root)
    return [leaf_as_array(leaf, f"{where} {name}") for leaf, name in zip(leaves, names)], treedef


def _trace(fun: Callable[[Any], object], like: Sequence[Array], tree: PyTreeDef, what: str, where: str) -> tuple[ClosedJaxpr[Array], PyTreeDef]:
    """``fun`` traced on one argument of structure ``tree`` with leaves
    typed like ``like``: its jaxpr (closed-over values as consts) and the
    structure of its output."""
    interp = StagingInterpreter(current_interpreter(), what, where)
    with transformation_scope(interp):
        args = [interp.new_arg(x.aval) for x in like]
        outs, out_tree = _flat_arrays(fun(tree.unflatten(args)), "output", f"{where}: {what}")
        closed = interp.build(outs)
    return closed, out_tree


def _check_same(closed: ClosedJaxpr[Array], out_tree: PyTreeDef, like: Sequence[Array], tree: PyTreeDef, what: str, where: str) -> None:
    """Reject an output of another structure or other types than ``like``."""
    if out_tree != tree:
        raise JaxtypedValueError(f"{where}: {what} must return the structure of its input ({tree}), got {out_tree}")
    for got, want in zip(closed.jaxpr.out_avals, like):
        if got.shape != want.shape or got.dtype != want.dtype:
            raise JaxtypedValueError(
                f"{where}: {what} must return values of its input's types ({want.aval.str_short()}), got {got.str_short()}"
            )


def _trace_solver(
    solver: Callable[[Callable[[X], X], X], object], operator: Callable[[Any], Any], like: Sequence[Array],
    tree: PyTreeDef, has_aux: bool, what: str, where: str,
) -> tuple[ClosedJaxpr[Array], PyTreeDef]:
    """``solver(operator, ·)`` traced: its jaxpr maps right-hand sides to
    solution leaves followed by aux leaves; returns also aux's structure."""
    aux_trees: list[PyTreeDef] = []

    def flat_solver(right: object) -> object:
        result = solver(cast(Callable[[X], X], operator), cast(X, right))
        x, aux = cast(tuple[object, object], result) if has_aux else (result, ())
        x_leaves, x_tree = _flat_arrays(x, "solution", f"{where}: {what}")
        if x_tree != tree:
            raise JaxtypedValueError(f"{where}: {what} must return a solution of the structure {tree}, got {x_tree}")
        aux_leaves, aux_tree = _flat_arrays(aux, "aux", f"{where}: {what}")
        aux_trees.append(aux_tree)
        return (*x_leaves, *aux_leaves)

    closed, _ = _trace(flat_solver, like, tree, what, where)
    return closed, aux_trees[-1]


def _as_function(closed: ClosedJaxpr[Array], tree: PyTreeDef, consts: Sequence[Array]) -> Callable[[Any], Any]:
    def apply(x: object) -> object:
        leaves, _ = tree_flatten(x)
        return tree.unflatten(list(eval_jaxpr(closed.jaxpr, tuple(consts), *cast(list[Array], leaves))))

    return apply


def _apply(closed: ClosedJaxpr[Array], consts: Sequence[Array], args: Sequence[Array]) -> tuple[Array, ...]:
    return eval_jaxpr(closed.jaxpr, tuple(consts), *args)


def _tangent_zeros(values: Sequence[Array]) -> list[Array]:
    return [zeros(v.aval.to_tangent_aval()) for v in values]


def _solution_only(closed: ClosedJaxpr[Array], n: int) -> Jaxpr:
    """A solver's const-free jaxpr (consts as leading inputs) that returns
    the solution only, not aux."""
    jaxpr = consts_as_invars(closed.jaxpr)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars[:n], jaxpr.eqns)


@final
@dataclass(frozen=True, slots=True)
class LinearSolve(Primitive):
    """The solution of a linear system as a function of its right-hand side
    (linear in it): JAX's ``custom_linear_solve`` primitive.

    Operands: the ``nmatvec`` consts of ``matvec_jaxpr`` (the operator,
    ``consts, x -> A x``), the ``nsolve`` consts of ``solve_jaxpr``
    (``consts, b -> x``), the ``ntranspose`` consts of ``transpose_jaxpr``
    (the transposed system's solver), then the right-hand side. With
    ``transposed``, the system is the transpose of ``matvec`` (its
    operator is ``matvec``'s linear transpose). Derivatives flow through
    the right-hand side and the operator's consts (``dx = S (db - dA x)``),
    not through the solvers' consts, as in JAX; the transpose solves the
    transposed system.
    """

    name: ClassVar[str] = "custom_linear_solve"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False
    matvec_jaxpr: Jaxpr
    solve_jaxpr: Jaxpr
    transpose_jaxpr: Jaxpr | None
    nmatvec: int
    nsolve: int
    ntranspose: int
    transposed: bool = False
    symmetric: bool = False  # the operator is its own transpose (as the user promised)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        rhs = avals[self.nmatvec + self.nsolve + self.ntranspose :]
        expected = self.solve_jaxpr.in_avals[self.nsolve :]
        if tuple((a.shape, a.dtype) for a in rhs) != tuple((a.shape, a.dtype) for a in expected):
            raise JaxtypedTypeError(
                f"custom_linear_solve: right-hand side ({short_types(rhs)}) does not match the solver's "
                f"({short_types(expected)})"
            )
        return self.solve_jaxpr.out_avals

    def _split(self, args: Sequence[T]) -> tuple[list[T], list[T], list[T], list[T]]:
        nm, ns, nt = self.nmatvec, self.nsolve, self.ntranspose
        return list(args[:nm]), list(args[nm : nm + ns]), list(args[nm + ns : nm + ns + nt]), list(args[nm + ns + nt :])

    def operator(self, consts: Sequence[Array]) -> Callable[[Sequence[Array]], list[Array]]:
        """The system's operator on flat values (``matvec`` or its transpose)."""

        def matvec(x: Sequence[Array]) -> list[Array]:
            return list(eval_jaxpr(self.matvec_jaxpr, (), *consts, *x))

        if not self.transposed:
            return matvec

        def vecmat(y: Sequence[Array]) -> list[Array]:
            like = [zeros(a) for a in self.matvec_jaxpr.in_avals[self.nmatvec :]]
            _, pullback = vjp(lambda *x: tuple(matvec(x)), *like)
            return [instantiate(c) for c in cast(tuple[Tangent, ...], pullback(tuple(y)))]

        return vecmat

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        return evaluate_compiled(self, args, out_avals)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        _, consts, _, rhs = self._split(args)
        return lower_jaxpr_inline(ctx, self.solve_jaxpr, (), [*consts, *rhs])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        outs = bind(self, *primals)
        m_consts, _, _, _ = self._split(primals)
        dm, _, _, drhs = self._split(tangents)
        if all(isinstance(t, Zero) for t in (*dm, *drhs)):
            return outs, zero_tangents(outs)
        right = [instantiate(t) for t in drhs]
        if any(not isinstance(t, Zero) for t in dm):
            # The operator's own change, (dA) x, moves to the right-hand side.
            _, moved = jvp(
                lambda *c: tuple(self.operator(c)(outs)), tuple(m_consts), tuple(instantiate(t) for t in dm)
            )
            right = [sub(r, d) for r, d in zip(right, moved)]
        known = primals[: self.nmatvec + self.nsolve + self.ntranspose]
        return outs, bind(self, *known, *right)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        m_consts, s_consts, t_consts, _ = self._split(args)
        if self.transpose_jaxpr is None:
            raise JaxtypedTypeError(
                "lax.custom_linear_solve: reverse-mode differentiation needs transpose_solve (or symmetric=True)"
            )
        if any(isinstance(c, UndefinedPrimal) for c in (*m_consts, *s_consts, *t_consts)):
            raise JaxtypedTypeError("custom_linear_solve: the operator's and solvers' consts cannot be linear")
        swapped = LinearSolve(
            self.matvec_jaxpr, self.transpose_jaxpr, self.solve_jaxpr, self.nmatvec, self.ntranspose, self.nsolve,
            self.transposed if self.symmetric else not self.transposed, self.symmetric,
        )
        known = cast(list[Array], [*m_consts, *t_consts, *s_consts])
        back = bind(swapped, *known, *(instantiate(c) for c in cts))
        return (*(None,) * (self.nmatvec + self.nsolve + self.ntranspose), *back)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        m_consts, s_consts, t_consts, rhs = self._split(args)
        m_dims, s_dims, t_dims, r_dims = self._split(dims)
        rhs = [bdim_to_front(r, d, axis.size) for r, d in zip(rhs, r_dims)]
        rhs_avals = tuple(r.aval for r in rhs)
        n_out = len(self.solve_jaxpr.outvars)

        def batched(jaxpr: Jaxpr, consts: list[Array], const_dims: list[BatchDim]) -> tuple[Jaxpr, tuple[Array, ...]]:
            closed, _ = batch_jaxpr(
                jaxpr, axis, tuple(c.aval for c in consts) + rhs_avals, (*const_dims, *(0,) * len(rhs)),
                force_out=(True,) * n_out,
            )
            return consts_as_invars(closed.jaxpr), closed.consts

        new_matvec, extra_m = batched(self.matvec_jaxpr, m_consts, m_dims)
        new_solve, extra_s = batched(self.solve_jaxpr, s_consts, s_dims)
        new_transpose: Jaxpr | None = None
        extra_t: tuple[Array, ...] = ()
        if self.transpose_jaxpr is not None:
            new_transpose, extra_t = batched(self.transpose_jaxpr, t_consts, t_dims)
        prim = LinearSolve(
            new_matvec, new_solve, new_transpose, len(extra_m) + len(m_consts), len(extra_s) + len(s_consts),
            len(extra_t) + len(t_consts), self.transposed, self.symmetric,
        )
        outs = bind(prim, *extra_m, *m_consts, *extra_s, *s_consts, *extra_t, *t_consts, *rhs)
        return outs, (0,) * len(outs)


@overload
def custom_root(
    f: Callable[[X], X],
    initial_guess: X,
    solve: Callable[[Callable[[X], X], X], X],
    tangent_solve: Callable[[Callable[[X], X], X], X],
    has_aux: Literal[False] = False,
) -> X: ...
@overload
def custom_root(
    f: Callable[[X], X],
    initial_guess: X,
    solve: Callable[[Callable[[X], X], X], tuple[X, Aux]],
    tangent_solve: Callable[[Callable[[X], X], X], X],
    has_aux: Literal[True],
) -> tuple[X, Aux]: ...
def custom_root(
    f: Callable[[X], X],
    initial_guess: X,
    solve: Callable[[Callable[[X], X], X], object],
    tangent_solve: Callable[[Callable[[X], X], X], X],
    has_aux: bool = False,
) -> object:
    """``solve(f, initial_guess)``: a root of ``f``, differentiated
    implicitly with respect to the values ``f`` closes over (JAX's
    ``lax.custom_root``). ``tangent_solve(g, y)`` solves the linear system
    ``g(x) = y`` (``g`` is ``f``'s Jacobian at the root); with ``has_aux``,
    ``solve`` returns ``(root, aux)`` and ``aux`` gets no derivative."""
    where = "lax.custom_root"
    guess, tree = _flat_arrays(initial_guess, "initial_guess", where)
    f_closed, f_tree = _trace(cast(Callable[[Any], object], f), guess, tree, "f", where)
    _check_same(f_closed, f_tree, guess, tree, "f", where)
    nf = len(f_closed.consts)
    s_closed, aux_tree = _trace_solver(solve, _as_function(f_closed, tree, f_closed.consts), guess, tree, has_aux, "solve", where)
    ns = len(s_closed.consts)

    def root_by_solve(*args: Array) -> tuple[Array, ...]:
        outs = _apply(s_closed, args[nf : nf + ns], args[nf + ns :])
        return (*outs[: len(guess)], *(stop_gradient(a) for a in outs[len(guess) :]))

    def root_by_implicit_jvp(primals: tuple[Array, ...], tangents: tuple[Array, ...]) -> tuple[tuple[Array, ...], tuple[Array, ...]]:
        outs = rooted(*primals)
        consts, dconsts = primals[:nf], tangents[:nf]
        root = tree.unflatten(list(outs[: len(guess)]))
        # ∂f/∂θ dθ at the root, then the root's tangent from the linear system.
        _, rhs = jvp(lambda *c: _as_function(f_closed, tree, c)(root), tuple(consts), tuple(dconsts))
        f_at = _as_function(f_closed, tree, consts)

        def jacobian(v: object) -> object:
            return jvp(f_at, (root,), (v,))[1]

        neg_rhs = tree.unflatten([neg(cast(Array, r)) for r in tree_flatten(rhs)[0]])
        solved_tangent = tangent_solve(cast(Callable[[X], X], jacobian), cast(X, neg_rhs))
        droot, _ = _flat_arrays(solved_tangent, "tangent", f"{where}: tangent_solve")
        return outs, (*droot, *_tangent_zeros(outs[len(guess) :]))

    rooted = custom_jvp(root_by_solve)
    rooted.defjvp(root_by_implicit_jvp)
    flat = rooted(*f_closed.consts, *s_closed.consts, *guess)
    root_out = tree.unflatten(list(flat[: len(guess)]))
    if not has_aux:
        return root_out
    return root_out, aux_tree.unflatten(list(flat[len(guess) :]))


@overload
def custom_linear_solve(
    matvec: Callable[[X], X],
    b: X,
    solve: Callable[[Callable[[X], X], X], X],
    transpose_solve: Callable[[Callable[[X], X], X], X] | None = None,
    symmetric: bool = False,
    has_aux: Literal[False] = False,
) -> X: ...
@overload
def custom_linear_solve(
    matvec: Callable[[X], X],
    b: X,
    solve: Callable[[Callable[[X], X], X], tuple[X, Aux]],
    transpose_solve: Callable[[Callable[[X], X], X], tuple[X, Aux]] | None = None,
    symmetric: bool = False,
    *,
    has_aux: Literal[True],
) -> tuple[X, Aux]: ...
def custom_linear_solve(
    matvec: Callable[[X], X],
    b: X,
    solve: Callable[[Callable[[X], X], X], object],
    transpose_solve: Callable[[Callable[[X], X], X], object] | None = None,
    symmetric: bool = False,
    has_aux: bool = False,
) -> object:
    """``solve(matvec, b)``, a solution ``x`` of ``matvec(x) = b``, with
    derivatives from the linear system instead of from the solver (JAX's
    ``lax.custom_linear_solve``): forward mode solves for the tangent with
    ``solve``; reverse mode transposes with ``transpose_solve(vecmat, ct)``
    (``solve`` when ``symmetric``). With ``has_aux``, the solvers return
    ``(solution, aux)`` and ``aux`` gets no derivative."""
    where = "lax.custom_linear_solve"
    rhs, tree = _flat_arrays(b, "b", where)
    n = len(rhs)
    mv_closed, mv_tree = _trace(cast(Callable[[Any], object], matvec), rhs, tree, "matvec", where)
    _check_same(mv_closed, mv_tree, rhs, tree, "matvec", where)
    operator = _as_function(mv_closed, tree, mv_closed.consts)
    s_closed, aux_tree = _trace_solver(solve, operator, rhs, tree, has_aux, "solve", where)
    t_closed: ClosedJaxpr[Array] | None = None
    if symmetric:
        t_closed = s_closed
    elif transpose_solve is not None:
        _, pullback = vjp(operator, tree.unflatten(rhs))

        def vecmat(y: object) -> object:
            (ct,) = pullback(y)
            return ct

        t_closed, _ = _trace_solver(transpose_solve, vecmat, rhs, tree, has_aux, "transpose_solve", where)
    nm, ns = len(mv_closed.consts), len(s_closed.consts)
    t_consts = () if t_closed is None else t_closed.consts
    nt = len(t_consts)

    solve_prim = LinearSolve(
        consts_as_invars(mv_closed.jaxpr), _solution_only(s_closed, n),
        None if t_closed is None else _solution_only(t_closed, n), nm, ns, nt, symmetric=symmetric,
    )

    def linear_solve(*args: Array) -> tuple[Array, ...]:
        outs = _apply(s_closed, args[nm : nm + ns], args[nm + ns + nt :])
        return (*outs[:n], *(stop_gradient(a) for a in outs[n:]))

    def linear_solve_jvp(primals: tuple[Array, ...], tangents: tuple[Array, ...]) -> tuple[tuple[Array, ...], tuple[Array, ...]]:
        outs = solved(*primals)
        consts, dconsts, db = primals[:nm], tangents[:nm], tangents[nm + ns + nt :]
        x = tree.unflatten(list(outs[:n]))
        right = list(db)
        if nm:
            # (∂A/∂θ dθ) x, moved to the right-hand side.
            _, dax = jvp(lambda *c: _as_function(mv_closed, tree, c)(x), tuple(consts), tuple(dconsts))
            right = [sub(d, cast(Array, r)) for d, r in zip(db, tree_flatten(dax)[0])]
        dx = bind(solve_prim, *primals[: nm + ns + nt], *right)
        return outs, (*dx, *_tangent_zeros(outs[n:]))

    operands = (*mv_closed.consts, *s_closed.consts, *t_consts, *rhs)
    if not has_aux:
        # The primitive itself, as JAX's linear_solve_p: a solve applied to
        # a tangent (inside another function's jvp rule) is then transposed
        # by its own rule, the transposed system's solve.
        x_out = tree.unflatten(list(bind(solve_prim, *operands)))
        return x_out
    # aux is an output of the user's solver that the primitive does not
    # return: a custom_jvp call carries it, with a zero tangent.
    solved = custom_jvp(linear_solve)
    solved.defjvp(linear_solve_jvp)
    flat = solved(*operands)
    return tree.unflatten(list(flat[:n])), aux_tree.unflatten(list(flat[n:]))
