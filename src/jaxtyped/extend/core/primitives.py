"""The built-in primitives in JAX's form (``jax.extend.core.primitives``):
``eqn.primitive == add_p`` tests an equation, ``add_p.bind(x, y)`` applies one."""

from typing import Final

from jaxtyped._src.extend.builtins import BuiltinPrimitive
from jaxtyped._src.lax.arithmetic import Abs, Add, Ceil, Div, Floor, IntegerPow, IsFinite, Max, Min, Mul, Neg, Rem, Round, Sign, StopGradient, Sub
from jaxtyped._src.lax.comparison import And, Eq, Ge, Gt, Le, Lt, Ne, Not, Or, ShiftLeft, ShiftRightArithmetic, ShiftRightLogical, Xor
from jaxtyped._src.lax.complex_ops import Complex, Conj, Imag, Real
from jaxtyped._src.lax.control_flow.cond import Cond
from jaxtyped._src.lax.control_flow.loops import While
from jaxtyped._src.lax.control_flow.scan import Scan
from jaxtyped._src.lax.cumulative import CumMax, CumMin, CumProd, CumSum
from jaxtyped._src.lax.dot import DotGeneral
from jaxtyped._src.lax.elementwise_base import ConvertElementType
from jaxtyped._src.lax.elementwise_extra import Cbrt, Clamp, Exp2, NextAfter, PopulationCount, ReducePrecision, Square
from jaxtyped._src.lax.gather import Gather, Scatter, ScatterAdd
from jaxtyped._src.lax.reductions import ArgMax, ArgMin, ReduceAnd, ReduceMax, ReduceMin, ReduceOr, ReduceProd, ReduceSum
from jaxtyped._src.lax.slicing import DynamicSlice, DynamicUpdateSlice, Slice
from jaxtyped._src.lax.sorting import Sort, TopK
from jaxtyped._src.lax.special import Digamma, ErfInv, Erfc, Lgamma
from jaxtyped._src.lax.structural import BroadcastInDim, Concatenate, ExpandDims, Iota, Pad, Reshape, Rev, SelectN, Squeeze, Transpose
from jaxtyped._src.lax.transcendental import Acos, Acosh, Asin, Asinh, Atan, Atan2, Atanh, Cos, Cosh, Erf, Exp, Expm1, Log, Log1p, Logistic, Pow, Rsqrt, Sin, Sinh, Sqrt, Tan, Tanh

__all__ = [
    "BuiltinPrimitive",
    "abs_p",
    "acos_p",
    "acosh_p",
    "add_p",
    "and_p",
    "argmax_p",
    "argmin_p",
    "asin_p",
    "asinh_p",
    "atan_p",
    "atan2_p",
    "atanh_p",
    "broadcast_in_dim_p",
    "cbrt_p",
    "ceil_p",
    "clamp_p",
    "complex_p",
    "concatenate_p",
    "cond_p",
    "conj_p",
    "convert_element_type_p",
    "cos_p",
    "cosh_p",
    "cummax_p",
    "cummin_p",
    "cumprod_p",
    "cumsum_p",
    "digamma_p",
    "div_p",
    "dot_general_p",
    "dynamic_slice_p",
    "dynamic_update_slice_p",
    "eq_p",
    "erf_p",
    "erf_inv_p",
    "erfc_p",
    "exp_p",
    "exp2_p",
    "expand_dims_p",
    "expm1_p",
    "floor_p",
    "gather_p",
    "ge_p",
    "gt_p",
    "imag_p",
    "integer_pow_p",
    "iota_p",
    "is_finite_p",
    "le_p",
    "lgamma_p",
    "log_p",
    "log1p_p",
    "logistic_p",
    "lt_p",
    "max_p",
    "min_p",
    "mul_p",
    "ne_p",
    "neg_p",
    "nextafter_p",
    "not_p",
    "or_p",
    "pad_p",
    "population_count_p",
    "pow_p",
    "real_p",
    "reduce_and_p",
    "reduce_max_p",
    "reduce_min_p",
    "reduce_or_p",
    "reduce_precision_p",
    "reduce_prod_p",
    "reduce_sum_p",
    "rem_p",
    "reshape_p",
    "rev_p",
    "round_p",
    "rsqrt_p",
    "scan_p",
    "scatter_p",
    "scatter_add_p",
    "select_n_p",
    "shift_left_p",
    "shift_right_arithmetic_p",
    "shift_right_logical_p",
    "sign_p",
    "sin_p",
    "sinh_p",
    "slice_p",
    "sort_p",
    "sqrt_p",
    "square_p",
    "squeeze_p",
    "stop_gradient_p",
    "sub_p",
    "tan_p",
    "tanh_p",
    "top_k_p",
    "transpose_p",
    "while_p",
    "xor_p",
]

abs_p: Final = BuiltinPrimitive(Abs)
acos_p: Final = BuiltinPrimitive(Acos)
acosh_p: Final = BuiltinPrimitive(Acosh)
add_p: Final = BuiltinPrimitive(Add)
and_p: Final = BuiltinPrimitive(And)
argmax_p: Final = BuiltinPrimitive(ArgMax)
argmin_p: Final = BuiltinPrimitive(ArgMin)
asin_p: Final = BuiltinPrimitive(Asin)
asinh_p: Final = BuiltinPrimitive(Asinh)
atan_p: Final = BuiltinPrimitive(Atan)
atan2_p: Final = BuiltinPrimitive(Atan2)
atanh_p: Final = BuiltinPrimitive(Atanh)
broadcast_in_dim_p: Final = BuiltinPrimitive(BroadcastInDim)
cbrt_p: Final = BuiltinPrimitive(Cbrt)
ceil_p: Final = BuiltinPrimitive(Ceil)
clamp_p: Final = BuiltinPrimitive(Clamp)
complex_p: Final = BuiltinPrimitive(Complex)
concatenate_p: Final = BuiltinPrimitive(Concatenate)
cond_p: Final = BuiltinPrimitive(Cond, multiple_results=True)
conj_p: Final = BuiltinPrimitive(Conj)
convert_element_type_p: Final = BuiltinPrimitive(ConvertElementType)
cos_p: Final = BuiltinPrimitive(Cos)
cosh_p: Final = BuiltinPrimitive(Cosh)
cummax_p: Final = BuiltinPrimitive(CumMax)
cummin_p: Final = BuiltinPrimitive(CumMin)
cumprod_p: Final = BuiltinPrimitive(CumProd)
cumsum_p: Final = BuiltinPrimitive(CumSum)
digamma_p: Final = BuiltinPrimitive(Digamma)
div_p: Final = BuiltinPrimitive(Div)
dot_general_p: Final = BuiltinPrimitive(DotGeneral)
dynamic_slice_p: Final = BuiltinPrimitive(DynamicSlice)
dynamic_update_slice_p: Final = BuiltinPrimitive(DynamicUpdateSlice)
eq_p: Final = BuiltinPrimitive(Eq)
erf_p: Final = BuiltinPrimitive(Erf)
erf_inv_p: Final = BuiltinPrimitive(ErfInv)
erfc_p: Final = BuiltinPrimitive(Erfc)
exp_p: Final = BuiltinPrimitive(Exp)
exp2_p: Final = BuiltinPrimitive(Exp2)
expand_dims_p: Final = BuiltinPrimitive(ExpandDims)
expm1_p: Final = BuiltinPrimitive(Expm1)
floor_p: Final = BuiltinPrimitive(Floor)
gather_p: Final = BuiltinPrimitive(Gather)
ge_p: Final = BuiltinPrimitive(Ge)
gt_p: Final = BuiltinPrimitive(Gt)
imag_p: Final = BuiltinPrimitive(Imag)
integer_pow_p: Final = BuiltinPrimitive(IntegerPow)
iota_p: Final = BuiltinPrimitive(Iota)
is_finite_p: Final = BuiltinPrimitive(IsFinite)
le_p: Final = BuiltinPrimitive(Le)
lgamma_p: Final = BuiltinPrimitive(Lgamma)
log_p: Final = BuiltinPrimitive(Log)
log1p_p: Final = BuiltinPrimitive(Log1p)
logistic_p: Final = BuiltinPrimitive(Logistic)
lt_p: Final = BuiltinPrimitive(Lt)
max_p: Final = BuiltinPrimitive(Max)
min_p: Final = BuiltinPrimitive(Min)
mul_p: Final = BuiltinPrimitive(Mul)
ne_p: Final = BuiltinPrimitive(Ne)
neg_p: Final = BuiltinPrimitive(Neg)
nextafter_p: Final = BuiltinPrimitive(NextAfter)
not_p: Final = BuiltinPrimitive(Not)
or_p: Final = BuiltinPrimitive(Or)
pad_p: Final = BuiltinPrimitive(Pad)
population_count_p: Final = BuiltinPrimitive(PopulationCount)
pow_p: Final = BuiltinPrimitive(Pow)
real_p: Final = BuiltinPrimitive(Real)
reduce_and_p: Final = BuiltinPrimitive(ReduceAnd)
reduce_max_p: Final = BuiltinPrimitive(ReduceMax)
reduce_min_p: Final = BuiltinPrimitive(ReduceMin)
reduce_or_p: Final = BuiltinPrimitive(ReduceOr)
reduce_precision_p: Final = BuiltinPrimitive(ReducePrecision)
reduce_prod_p: Final = BuiltinPrimitive(ReduceProd)
reduce_sum_p: Final = BuiltinPrimitive(ReduceSum)
rem_p: Final = BuiltinPrimitive(Rem)
reshape_p: Final = BuiltinPrimitive(Reshape)
rev_p: Final = BuiltinPrimitive(Rev)
round_p: Final = BuiltinPrimitive(Round)
rsqrt_p: Final = BuiltinPrimitive(Rsqrt)
scan_p: Final = BuiltinPrimitive(Scan, multiple_results=True)
scatter_p: Final = BuiltinPrimitive(Scatter)
scatter_add_p: Final = BuiltinPrimitive(ScatterAdd)
select_n_p: Final = BuiltinPrimitive(SelectN)
shift_left_p: Final = BuiltinPrimitive(ShiftLeft)
shift_right_arithmetic_p: Final = BuiltinPrimitive(ShiftRightArithmetic)
shift_right_logical_p: Final = BuiltinPrimitive(ShiftRightLogical)
sign_p: Final = BuiltinPrimitive(Sign)
sin_p: Final = BuiltinPrimitive(Sin)
sinh_p: Final = BuiltinPrimitive(Sinh)
slice_p: Final = BuiltinPrimitive(Slice)
sort_p: Final = BuiltinPrimitive(Sort, multiple_results=True)
sqrt_p: Final = BuiltinPrimitive(Sqrt)
square_p: Final = BuiltinPrimitive(Square)
squeeze_p: Final = BuiltinPrimitive(Squeeze)
stop_gradient_p: Final = BuiltinPrimitive(StopGradient)
sub_p: Final = BuiltinPrimitive(Sub)
tan_p: Final = BuiltinPrimitive(Tan)
tanh_p: Final = BuiltinPrimitive(Tanh)
top_k_p: Final = BuiltinPrimitive(TopK, multiple_results=True)
transpose_p: Final = BuiltinPrimitive(Transpose)
while_p: Final = BuiltinPrimitive(While, multiple_results=True)
xor_p: Final = BuiltinPrimitive(Xor)
