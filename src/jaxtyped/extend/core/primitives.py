"""The built-in primitives in JAX's form (``jax.extend.core.primitives``):
``eqn.primitive == add_p`` tests an equation, ``add_p.bind(x, y)`` applies one."""

from typing import Final

from jaxtyped._src.api_solvers import LinearSolve
from jaxtyped._src.extend.builtins import BuiltinPrimitive
from jaxtyped._src.lax.arithmetic import Abs, Add, Ceil, Div, Floor, IntegerPow, IsFinite, Max, Min, Mul, Neg, Rem, Round, Sign, StopGradient, Sub
from jaxtyped._src.lax.bitwise_misc import BitcastConvertType, Mulhi, OptimizationBarrier
from jaxtyped._src.lax.comparison import And, Eq, Ge, Gt, Le, Lt, Ne, Not, Or, ShiftLeft, ShiftRightArithmetic, ShiftRightLogical, Xor
from jaxtyped._src.lax.complex_ops import Complex, Conj, Imag, Real
from jaxtyped._src.lax.control_flow.cond import Cond
from jaxtyped._src.lax.control_flow.loops import While
from jaxtyped._src.lax.control_flow.scan import Scan
from jaxtyped._src.lax.convolution import ConvGeneralDilated
from jaxtyped._src.lax.cumulative import CumLogSumExp, CumMax, CumMin, CumProd, CumSum
from jaxtyped._src.lax.dot import DotGeneral
from jaxtyped._src.lax.elementwise_base import ConvertElementType
from jaxtyped._src.lax.elementwise_extra import Cbrt, Clamp, Clz, Exp2, NextAfter, PopulationCount, ReducePrecision, Square
from jaxtyped._src.lax.fft import Fft
from jaxtyped._src.lax.gather import Gather, Scatter, ScatterAdd, ScatterMax, ScatterMin, ScatterMul, ScatterSub
from jaxtyped._src.lax.parallel import AllGather, AllToAll, AxisIndex, Pmax, Pmin, Ppermute, Psum, ShardingConstraint
from jaxtyped._src.lax.reduce_general import Reduce
from jaxtyped._src.lax.rng_bit_generator import RngBitGenerator
from jaxtyped._src.lax.reductions import ArgMax, ArgMin, ReduceAnd, ReduceMax, ReduceMin, ReduceOr, ReduceProd, ReduceSum, ReduceXor
from jaxtyped._src.lax.slicing import DynamicSlice, DynamicUpdateSlice, Slice
from jaxtyped._src.lax.sorting import Sort, TopK
from jaxtyped._src.lax.special import BesselI0e, BesselI1e, Digamma, ErfInv, Erfc, Igamma, IgammaGradA, Igammac, Lgamma, Polygamma, RegularizedIncompleteBeta, Zeta
from jaxtyped._src.lax.structural import BroadcastInDim, Concatenate, ExpandDims, Iota, Pad, Reshape, Rev, SelectN, Squeeze, Transpose
from jaxtyped._src.lax.transcendental import Acos, Acosh, Asin, Asinh, Atan, Atan2, Atanh, Cos, Cosh, Erf, Exp, Expm1, Log, Log1p, Logistic, Pow, Rsqrt, Sin, Sinh, Sqrt, Tan, Tanh
from jaxtyped._src.lax.windowed import ReduceWindowMax, ReduceWindowMin, ReduceWindowSum

__all__ = [
    "BuiltinPrimitive",
    "BuiltinPrimitive",
    "abs_p",
    "acos_p",
    "acosh_p",
    "add_p",
    "all_gather_p",
    "all_to_all_p",
    "and_p",
    "argmax_p",
    "argmin_p",
    "asin_p",
    "asinh_p",
    "atan2_p",
    "atan_p",
    "atanh_p",
    "axis_index_p",
    "bessel_i0e_p",
    "bessel_i1e_p",
    "bitcast_convert_type_p",
    "broadcast_in_dim_p",
    "cbrt_p",
    "ceil_p",
    "clamp_p",
    "clz_p",
    "complex_p",
    "concatenate_p",
    "cond_p",
    "conj_p",
    "conv_general_dilated_p",
    "convert_element_type_p",
    "cos_p",
    "cosh_p",
    "cumlogsumexp_p",
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
    "erf_inv_p",
    "erf_p",
    "erfc_p",
    "exp2_p",
    "exp_p",
    "expand_dims_p",
    "expm1_p",
    "fft_p",
    "floor_p",
    "gather_p",
    "ge_p",
    "gt_p",
    "igamma_grad_a_p",
    "igamma_p",
    "igammac_p",
    "imag_p",
    "integer_pow_p",
    "iota_p",
    "is_finite_p",
    "le_p",
    "lgamma_p",
    "linear_solve_p",
    "log1p_p",
    "log_p",
    "logistic_p",
    "lt_p",
    "max_p",
    "min_p",
    "mul_p",
    "mulhi_p",
    "ne_p",
    "neg_p",
    "nextafter_p",
    "not_p",
    "optimization_barrier_p",
    "or_p",
    "pad_p",
    "pmax_p",
    "pmin_p",
    "polygamma_p",
    "population_count_p",
    "pow_p",
    "ppermute_p",
    "psum_p",
    "real_p",
    "reduce_and_p",
    "reduce_max_p",
    "reduce_min_p",
    "reduce_or_p",
    "reduce_p",
    "reduce_precision_p",
    "reduce_prod_p",
    "reduce_sum_p",
    "reduce_window_max_p",
    "reduce_window_min_p",
    "reduce_window_sum_p",
    "reduce_xor_p",
    "regularized_incomplete_beta_p",
    "rem_p",
    "reshape_p",
    "rev_p",
    "round_p",
    "rsqrt_p",
    "scan_p",
    "scatter_add_p",
    "scatter_max_p",
    "scatter_min_p",
    "scatter_mul_p",
    "scatter_p",
    "scatter_sub_p",
    "select_n_p",
    "sharding_constraint_p",
    "shift_left_p",
    "shift_right_arithmetic_p",
    "shift_right_logical_p",
    "sign_p",
    "sin_p",
    "sinh_p",
    "slice_p",
    "rng_bit_generator_p",
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
    "zeta_p",
]

abs_p: Final = BuiltinPrimitive(Abs)
acos_p: Final = BuiltinPrimitive(Acos)
acosh_p: Final = BuiltinPrimitive(Acosh)
add_p: Final = BuiltinPrimitive(Add)
all_gather_p: Final = BuiltinPrimitive(AllGather)
all_to_all_p: Final = BuiltinPrimitive(AllToAll)
and_p: Final = BuiltinPrimitive(And)
argmax_p: Final = BuiltinPrimitive(ArgMax)
argmin_p: Final = BuiltinPrimitive(ArgMin)
asin_p: Final = BuiltinPrimitive(Asin)
asinh_p: Final = BuiltinPrimitive(Asinh)
atan2_p: Final = BuiltinPrimitive(Atan2)
atan_p: Final = BuiltinPrimitive(Atan)
atanh_p: Final = BuiltinPrimitive(Atanh)
axis_index_p: Final = BuiltinPrimitive(AxisIndex)
bessel_i0e_p: Final = BuiltinPrimitive(BesselI0e)
bessel_i1e_p: Final = BuiltinPrimitive(BesselI1e)
bitcast_convert_type_p: Final = BuiltinPrimitive(BitcastConvertType)
broadcast_in_dim_p: Final = BuiltinPrimitive(BroadcastInDim)
cbrt_p: Final = BuiltinPrimitive(Cbrt)
ceil_p: Final = BuiltinPrimitive(Ceil)
clamp_p: Final = BuiltinPrimitive(Clamp)
clz_p: Final = BuiltinPrimitive(Clz)
complex_p: Final = BuiltinPrimitive(Complex)
concatenate_p: Final = BuiltinPrimitive(Concatenate)
cond_p: Final = BuiltinPrimitive(Cond)
conj_p: Final = BuiltinPrimitive(Conj)
conv_general_dilated_p: Final = BuiltinPrimitive(ConvGeneralDilated)
convert_element_type_p: Final = BuiltinPrimitive(ConvertElementType)
cos_p: Final = BuiltinPrimitive(Cos)
cosh_p: Final = BuiltinPrimitive(Cosh)
cumlogsumexp_p: Final = BuiltinPrimitive(CumLogSumExp)
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
erf_inv_p: Final = BuiltinPrimitive(ErfInv)
erf_p: Final = BuiltinPrimitive(Erf)
erfc_p: Final = BuiltinPrimitive(Erfc)
exp2_p: Final = BuiltinPrimitive(Exp2)
exp_p: Final = BuiltinPrimitive(Exp)
expand_dims_p: Final = BuiltinPrimitive(ExpandDims)
expm1_p: Final = BuiltinPrimitive(Expm1)
fft_p: Final = BuiltinPrimitive(Fft)
floor_p: Final = BuiltinPrimitive(Floor)
gather_p: Final = BuiltinPrimitive(Gather)
ge_p: Final = BuiltinPrimitive(Ge)
gt_p: Final = BuiltinPrimitive(Gt)
igamma_grad_a_p: Final = BuiltinPrimitive(IgammaGradA)
igamma_p: Final = BuiltinPrimitive(Igamma)
igammac_p: Final = BuiltinPrimitive(Igammac)
imag_p: Final = BuiltinPrimitive(Imag)
integer_pow_p: Final = BuiltinPrimitive(IntegerPow)
iota_p: Final = BuiltinPrimitive(Iota)
is_finite_p: Final = BuiltinPrimitive(IsFinite)
le_p: Final = BuiltinPrimitive(Le)
lgamma_p: Final = BuiltinPrimitive(Lgamma)
linear_solve_p: Final = BuiltinPrimitive(LinearSolve)
log1p_p: Final = BuiltinPrimitive(Log1p)
log_p: Final = BuiltinPrimitive(Log)
logistic_p: Final = BuiltinPrimitive(Logistic)
lt_p: Final = BuiltinPrimitive(Lt)
max_p: Final = BuiltinPrimitive(Max)
min_p: Final = BuiltinPrimitive(Min)
mul_p: Final = BuiltinPrimitive(Mul)
mulhi_p: Final = BuiltinPrimitive(Mulhi)
ne_p: Final = BuiltinPrimitive(Ne)
neg_p: Final = BuiltinPrimitive(Neg)
nextafter_p: Final = BuiltinPrimitive(NextAfter)
not_p: Final = BuiltinPrimitive(Not)
optimization_barrier_p: Final = BuiltinPrimitive(OptimizationBarrier)
or_p: Final = BuiltinPrimitive(Or)
pad_p: Final = BuiltinPrimitive(Pad)
pmax_p: Final = BuiltinPrimitive(Pmax)
pmin_p: Final = BuiltinPrimitive(Pmin)
polygamma_p: Final = BuiltinPrimitive(Polygamma)
population_count_p: Final = BuiltinPrimitive(PopulationCount)
pow_p: Final = BuiltinPrimitive(Pow)
ppermute_p: Final = BuiltinPrimitive(Ppermute)
psum_p: Final = BuiltinPrimitive(Psum)
real_p: Final = BuiltinPrimitive(Real)
reduce_and_p: Final = BuiltinPrimitive(ReduceAnd)
reduce_max_p: Final = BuiltinPrimitive(ReduceMax)
reduce_min_p: Final = BuiltinPrimitive(ReduceMin)
reduce_or_p: Final = BuiltinPrimitive(ReduceOr)
reduce_p: Final = BuiltinPrimitive(Reduce)
reduce_precision_p: Final = BuiltinPrimitive(ReducePrecision)
reduce_prod_p: Final = BuiltinPrimitive(ReduceProd)
reduce_sum_p: Final = BuiltinPrimitive(ReduceSum)
reduce_window_max_p: Final = BuiltinPrimitive(ReduceWindowMax)
reduce_window_min_p: Final = BuiltinPrimitive(ReduceWindowMin)
reduce_window_sum_p: Final = BuiltinPrimitive(ReduceWindowSum)
reduce_xor_p: Final = BuiltinPrimitive(ReduceXor)
regularized_incomplete_beta_p: Final = BuiltinPrimitive(RegularizedIncompleteBeta)
rem_p: Final = BuiltinPrimitive(Rem)
reshape_p: Final = BuiltinPrimitive(Reshape)
rev_p: Final = BuiltinPrimitive(Rev)
round_p: Final = BuiltinPrimitive(Round)
rsqrt_p: Final = BuiltinPrimitive(Rsqrt)
scan_p: Final = BuiltinPrimitive(Scan)
scatter_add_p: Final = BuiltinPrimitive(ScatterAdd)
scatter_max_p: Final = BuiltinPrimitive(ScatterMax)
scatter_min_p: Final = BuiltinPrimitive(ScatterMin)
scatter_mul_p: Final = BuiltinPrimitive(ScatterMul)
scatter_p: Final = BuiltinPrimitive(Scatter)
scatter_sub_p: Final = BuiltinPrimitive(ScatterSub)
select_n_p: Final = BuiltinPrimitive(SelectN)
sharding_constraint_p: Final = BuiltinPrimitive(ShardingConstraint)
shift_left_p: Final = BuiltinPrimitive(ShiftLeft)
shift_right_arithmetic_p: Final = BuiltinPrimitive(ShiftRightArithmetic)
shift_right_logical_p: Final = BuiltinPrimitive(ShiftRightLogical)
sign_p: Final = BuiltinPrimitive(Sign)
sin_p: Final = BuiltinPrimitive(Sin)
sinh_p: Final = BuiltinPrimitive(Sinh)
slice_p: Final = BuiltinPrimitive(Slice)
rng_bit_generator_p: Final = BuiltinPrimitive(RngBitGenerator)
sort_p: Final = BuiltinPrimitive(Sort)
sqrt_p: Final = BuiltinPrimitive(Sqrt)
square_p: Final = BuiltinPrimitive(Square)
squeeze_p: Final = BuiltinPrimitive(Squeeze)
stop_gradient_p: Final = BuiltinPrimitive(StopGradient)
sub_p: Final = BuiltinPrimitive(Sub)
tan_p: Final = BuiltinPrimitive(Tan)
tanh_p: Final = BuiltinPrimitive(Tanh)
top_k_p: Final = BuiltinPrimitive(TopK)
transpose_p: Final = BuiltinPrimitive(Transpose)
while_p: Final = BuiltinPrimitive(While)
xor_p: Final = BuiltinPrimitive(Xor)
zeta_p: Final = BuiltinPrimitive(Zeta)
