"""Type information for the Rust extension `ssmcheck._ssmcheck` (python/src): the engine behind a
few functions that trade JSON text with the Python package, which turns it into objects. Every
function raises `ValueError` with the engine's one-line message on bad input."""

from typing import Any, Optional, Sequence, Union

__version__: str

def claims(ids: Sequence[str], family: Optional[str], conjectures: Sequence[Any]) -> str:
    """The selected claims' metadata as a JSON list."""

def check(
    ids: Sequence[str],
    family: Optional[str],
    budget: str,
    seed: int,
    backend: str,
    progress: bool,
    json: Optional[str],
    shard: Optional[str],
    conjectures: Sequence[Any],
) -> str:
    """Runs the selected claims; their results JSON (a shard's: the claims it ran whole)."""

def replay(id: str, instance: str, control: bool, conjectures: Sequence[Any]) -> str:
    """Re-evaluates one instance (JSON) through a claim's check or its control; JSON out."""

def report(out: str, budget: str, seed: int, backend: str, progress: bool, from_files: Sequence[str], conjectures: Sequence[Any]) -> str:
    """Runs (or reads `from_files`) and writes the report into `out`; the results JSON."""

def selective_scan(
    d: int, n: int, length: int, delta: Sequence[float], a: Sequence[float], b: Sequence[float], c: Sequence[float], u: Sequence[float], delta_softplus: bool
) -> list[float]:
    """Mamba's S6 selective scan over d channels (flat row-major arrays); y as a flat list."""

def lrd_eq10(
    a: Sequence[float], b_bias: Sequence[float], b_weight: Sequence[float], w: Optional[float], bias: float, delta: float, zoh: bool, x: Sequence[float], t: int, k: int
) -> list[float]:
    """004 eq (10) on a diagonal SSM with one input channel: LRD(t+k, t) per mode."""

def interaction_states(a: Sequence[Sequence[float]], b: Sequence[float], delta: float, g: Sequence[float], w: Sequence[float], x: Sequence[float]) -> list[float]:
    """The 004 interaction-term SSM's states, flat."""

def mqar_instance(keys: int, values: int, length: int, seed: int, index: int) -> str:
    """A seeded MQAR instance as JSON."""

def mqar_construction(instance: str, theorem: int, slots: int, silu: bool) -> str:
    """000 Theorem 2, 3 or 4's construction run on an MQAR instance (JSON in and out)."""

def induction_lemma3(tokens: Sequence[int], vocab: int, slots: int, w: float, shift: float) -> str:
    """000 Lemma 3's layer on a token sequence (JSON out)."""

def copy_theorem2(xs: Sequence[Sequence[float]], pos: Sequence[int]) -> str:
    """003 Theorem 2's exact-copy construction (JSON out)."""

def ssd_forms(x: Sequence[float], p: int, log_decay: Sequence[float], b: Sequence[float], c: Sequence[float], n: int, form: str, chunk: int) -> list[float]:
    """One SSD head by form (scan, matrix, chunked), flat."""

def ssd_matrix(log_decay: Sequence[float], b: Sequence[float], c: Sequence[float], n: int) -> list[float]:
    """The SSD head's semiseparable matrix, flat."""

def lru_outputs(x: Sequence[float], nu_log: Sequence[float], theta_log: Sequence[float], b_re: Sequence[float], b_im: Sequence[float],
                c_re: Sequence[float], c_im: Sequence[float], d: Sequence[float], gamma_log: Sequence[float] | None) -> list[float]:
    """LRU outputs, flat."""

def dplr_kernel(lambda_re: Sequence[float], lambda_im: Sequence[float], p_re: Sequence[float], p_im: Sequence[float], rank: int,
                b_re: Sequence[float], b_im: Sequence[float], c_re: Sequence[float], c_im: Sequence[float], delta: float, rule: str,
                length: int) -> tuple[list[float], list[float]]:
    """S4's DPLR kernel as (real parts, imaginary parts)."""

def s4d_lambda(init: str, state_size: int) -> tuple[list[float], list[float]]:
    """S4D's initial eigenvalues as (real parts, imaginary parts)."""

def delta_net_outputs(keys: Sequence[float], values: Sequence[float], queries: Sequence[float], dk: int, dv: int, beta: Sequence[float],
                      gate: Sequence[float]) -> list[float]:
    """The (gated) delta rule's outputs, flat."""

def diagonal_scan_states(decays_re: Sequence[float], decays_im: Sequence[float], inputs_re: Sequence[float], inputs_im: Sequence[float],
                         h0_re: Sequence[float], h0_im: Sequence[float]) -> tuple[list[float], list[float]]:
    """The diagonal scan's states h_1..h_T, flat real and imaginary parts."""

def rounding_bounds(n: int) -> tuple[float, float, float, float]:
    """The rounding bounds of a length-n computation (see `ssmcheck.rounding`)."""

class Interval:
    """A closed interval [lo, hi] holding an exact real; every operation keeps the exact result
    of the operation on any reals inside its operands inside its own result."""

    def __init__(self, lo: float, hi: Optional[float] = None) -> None: ...
    @staticmethod
    def decimal(text: str) -> "Interval":
        """The decimal number `text` enclosed (a point when it is a double)."""
    @staticmethod
    def pi() -> "Interval":
        """π enclosed."""
    @property
    def lo(self) -> float: ...
    @property
    def hi(self) -> float: ...
    def width(self) -> float: ...
    def mid(self) -> float: ...
    def contains(self, x: float) -> bool: ...
    def __add__(self, o: Union["Interval", float]) -> "Interval": ...
    def __radd__(self, o: Union["Interval", float]) -> "Interval": ...
    def __sub__(self, o: Union["Interval", float]) -> "Interval": ...
    def __rsub__(self, o: Union["Interval", float]) -> "Interval": ...
    def __mul__(self, o: Union["Interval", float]) -> "Interval": ...
    def __rmul__(self, o: Union["Interval", float]) -> "Interval": ...
    def __truediv__(self, o: Union["Interval", float]) -> "Interval": ...
    def __rtruediv__(self, o: Union["Interval", float]) -> "Interval": ...
    def __neg__(self) -> "Interval": ...
    def __abs__(self) -> "Interval": ...
    def __pow__(self, n: int, modulo: Optional[int] = None) -> "Interval": ...
    def square(self) -> "Interval": ...
    def sqrt(self) -> "Interval": ...
    def exp(self) -> "Interval": ...
    def ln(self) -> "Interval": ...
    def exp_m1(self) -> "Interval": ...
    def ln_1p(self) -> "Interval": ...
    def erfc(self) -> "Interval": ...
    def sin(self) -> "Interval": ...
    def cos(self) -> "Interval": ...
    def atan2(self, x: Union["Interval", float]) -> "Interval": ...

def spectral_norm(rows: Sequence[Sequence[float]]) -> Interval:
    """‖A‖₂ of a matrix given by its rows, enclosed."""


def solve_enclosed(rows: Sequence[Sequence[float]], b: Sequence[float]) -> list[Interval]:
    """The solution of A x = b enclosed (interval Gaussian elimination)."""

def expm_complex(re: Sequence[Sequence[float]], im: Sequence[Sequence[float]]) -> tuple[list[list[Interval]], list[list[Interval]]]:
    """e^A of a complex matrix enclosed: (real parts, imaginary parts)."""
class ComplexInterval:
    def __init__(self, re: Union[Interval, float], im: Union[Interval, float] = 0.0) -> None: ...
    @staticmethod
    def polar(r: Union[Interval, float], theta: Union[Interval, float]) -> "ComplexInterval":
        """r·e^{iθ} enclosed."""
    @property
    def re(self) -> Interval: ...
    @property
    def im(self) -> Interval: ...
    def contains(self, re: float, im: float) -> bool: ...
    def __add__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __radd__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __sub__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __rsub__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __mul__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __rmul__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __truediv__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __rtruediv__(self, o: Union["ComplexInterval", Interval, float]) -> "ComplexInterval": ...
    def __neg__(self) -> "ComplexInterval": ...
    def __abs__(self) -> Interval: ...
    def __pow__(self, n: int, modulo: Optional[int] = None) -> "ComplexInterval": ...
    def conj(self) -> "ComplexInterval": ...
    def exp(self) -> "ComplexInterval": ...
    def arg(self) -> Interval: ...

def inverse_enclosed(rows: Sequence[Sequence[float]]) -> list[list[Interval]]:
    """A⁻¹ enclosed by interval Gaussian elimination."""

def discretize(a: Sequence[Sequence[float]], b: Sequence[float], delta: float, rule: str) -> tuple[list[list[float]], list[float]]:
    """(Ā, B̄) of (A, B) at step delta by rule zoh, euler or bilinear."""

def exact_rank(matrix: Sequence[Sequence[tuple[str, str]]]) -> int:
    """The rank over the rationals of rows of (numerator, denominator) pairs."""

def exact_solve(a: Sequence[Sequence[tuple[str, str]]], b: Sequence[tuple[str, str]]) -> Optional[list[tuple[str, str]]]:
    """The exact solution as (numerator, denominator) pairs, or None when A is singular."""

def sign_changes(values: Sequence[tuple[str, str]]) -> int:
    """The sign changes of a sequence of (numerator, denominator) pairs, zeros skipped."""
