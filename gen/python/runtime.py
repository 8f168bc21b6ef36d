import array as _sdp_array
import dataclasses as _sdp_dc
import enum as _sdp_enum
import importlib as _sdp_importlib
import math as _sdp_math
import operator as _sdp_operator
import os as _sdp_os
import struct as _sdp_struct
import sys as _sdp_sys
import typing as _sdp_t

_SDP_SLOTS: dict[str, bool] = {"slots": True} if _sdp_sys.version_info >= (3, 10) else {}
_SDP_BIG = _sdp_sys.byteorder == "big"
_SDP_U8 = _sdp_struct.Struct("<B")
_SDP_U16 = _sdp_struct.Struct("<H")
_SDP_U32 = _sdp_struct.Struct("<I")
_SDP_U32_FROM = _SDP_U32.unpack_from
_SDP_U32_PACK = _SDP_U32.pack
_SDP_U64 = _sdp_struct.Struct("<Q")
_SDP_I8 = _sdp_struct.Struct("<b")
_SDP_I16 = _sdp_struct.Struct("<h")
_SDP_I32 = _sdp_struct.Struct("<i")
_SDP_I64 = _sdp_struct.Struct("<q")
_SDP_F32 = _sdp_struct.Struct("<f")
_SDP_F64 = _sdp_struct.Struct("<d")
_SDP_HEADER = _sdp_struct.Struct("<4sHI")
_SDP_HELLO_ENTRY = _sdp_struct.Struct("<HQ")
_SDP_MAGIC = b"SDP2"
MESSAGE_HEADER_SIZE = 10
"""The size of a message's header: "SDP2", u16 type id, u32 payload length."""
HELLO_TYPE_ID = 0
"""The type id of a hello (MessageWriter.write_hello); no struct has it."""
DEFAULT_MAX_MESSAGE_SIZE = 64 << 20
"""The largest payload a MessageReader reads and a MessageWriter writes unless
told otherwise (64 MiB)."""
_SDP_DEFAULT_DEPTH = 64
_SDP_T = _sdp_t.TypeVar("_SDP_T")
_SDP_E = _sdp_t.TypeVar("_SDP_E", bound=_sdp_enum.IntEnum)
assert _sdp_array.array("I").itemsize == 4 and _sdp_array.array("i").itemsize == 4
# The numpy dtypes of the array.array type codes: little-endian whatever the
# host's byte order.
_SDP_DTYPES = {"b": "i1", "B": "u1", "h": "<i2", "H": "<u2", "i": "<i4", "I": "<u4",
               "q": "<i8", "Q": "<u8", "f": "<f4", "d": "<f8"}
_sdp_np: _sdp_t.Any = None
# A bool byte's value in the decoders' fast paths (an IndexError above 1).
_SDP_BOOLS = (False, True)
# A bool's byte in the encoders: True and False (and what equals them: 1,
# 0, numpy's bools); anything else (None, 2, "yes") is a KeyError.
_SDP_BOOL: dict[_sdp_t.Any, int] = {False: 0, True: 1}


class _SdpSlow(ValueError):
    """A decoder's fast path met something it leaves to the field-by-field
    decoder (which raises the DecodeError)."""


class DecodeError(Exception):
    """A rejected input: rule names the broken rule of the wire format
    (truncated, trailing, bool, presence, enum, union_tag, utf8, count, depth,
    message, memory; schema for a stream's hello), offset the byte where it was found (for a stream, from
    the start of the stream), path the field path, index the message's
    position in a stream and start the stream offset of its first byte (both
    None outside streams). str(e) is "<rule> at offset <offset> in <path>:
    <message>" (no " in <path>" when the path is empty); a stream's error
    reads "message <index> at stream offset <start>: " and then the same
    with the offset counted from the message's first byte (docs/api.md, "One
    layout of error text"). skippable is True when a
    MessageReader read the whole bad message (a payload its decoder rejects,
    an unknown type id, a hello after the first message) and its next read
    goes on with the next one; after any other stream error every read
    raises the same error again."""

    def __init__(self, rule: str, offset: int, msg: str, path: str = "") -> None:
        super().__init__(msg)
        self.rule = rule
        self.offset = offset
        self.msg = msg
        self.index: int | None = None
        self.start: int | None = None
        self.skippable = False
        self._sdp_segs: list[str | int] = []
        self._sdp_base = path

    @property
    def path(self) -> str:
        out = self._sdp_base
        for seg in reversed(self._sdp_segs):
            if isinstance(seg, int):
                out += "[" + str(seg) + "]"
            elif out:
                out += "." + seg
            else:
                out = seg
        return out

    def __str__(self) -> str:
        path = self.path
        where = " in " + path if path else ""
        if self.start is None:
            return self.rule + " at offset " + str(self.offset) + where + ": " + self.msg
        return ("message " + str(self.index) + " at stream offset " + str(self.start) + ": " + self.rule
                + " at offset " + str(self.offset - self.start) + where + ": " + self.msg)


def _sdp_at(e: DecodeError, i: int) -> DecodeError:
    """e, inside element i of an array read in one piece (its path gets
    "[i]", as if the elements were read one by one)."""
    e._sdp_segs.append(i)
    return e


class EncodeError(ValueError):
    """A value that has no encoding (docs/wire-format.md, "Values that have no
    encoding"): rule names the broken rule (enum, union_tag, utf8, length,
    count, range, type; size for a buffer too small; message for a message
    over the writer's maximum size or 4 GiB), path the field path of the
    first bad value in encoding order ("items[1].color"; "" for the value
    itself), msg what is wrong, naming the type expected. str(e) is
    "<rule> in <path>: <message>", or "<rule>: <message>" with no path."""

    def __init__(self, rule: str, msg: str, path: str = "") -> None:
        super().__init__(msg)
        self.rule = rule
        self.msg = msg
        self.path = path

    def __str__(self) -> str:
        if self.path:
            return self.rule + " in " + self.path + ": " + self.msg
        return self.rule + ": " + self.msg


@_sdp_dc.dataclass(frozen=True)
class DecodeOptions:
    """Limits of a decoder: max_depth (rule 9; 0 or less means the default,
    64) and memory_limit (rule 11, in bytes; 0 or less means the default,
    32 x input length + 1 MiB).

    numpy=True decodes numeric arrays ([]T and [N]T of u16 ... f64 and i8;
    []u8 stays bytes) as read-only numpy.ndarray views of the input instead
    of array.array copies: no copy, so the input must stay alive (the views
    keep a reference to it) and must not be modified while they are used.
    It needs numpy (ImportError without it); without the option numpy is
    never imported."""

    max_depth: int = _SDP_DEFAULT_DEPTH
    memory_limit: int = 0
    numpy: bool = False


_SDP_DEFAULT_OPTIONS = DecodeOptions()


@_sdp_dc.dataclass(frozen=True)
class Some(_sdp_t.Generic[_SDP_T]):
    """A present outer optional around an optional (??T): Some(None) is
    present-but-absent, None is absent."""

    value: _SDP_T


# Aliases of builtin and runtime names for annotations inside generated
# classes, whose fields may shadow the names themselves.
_sdp_int = int
_sdp_float = float
_sdp_str = str
# object.__new__, typed Any: a fast path makes a dataclass instance with it
# and sets every field (no call of the dataclass's __init__).
_sdp_new: _sdp_t.Any = object.__new__
_sdp_bool = bool
_sdp_bytes = bytes
_sdp_list = list
_sdp_Prefix = tuple[_SDP_T, int]
_sdp_Some = Some
_sdp_DecodeOptions = DecodeOptions


class _SdpReader:
    __slots__ = ("buf", "end", "max_depth", "mem_limit", "mem_used", "np", "pos")

    def __init__(self, data: _sdp_t.Any, options: DecodeOptions | None, start: int = 0) -> None:
        opts = options if options is not None else _SDP_DEFAULT_OPTIONS
        self.np: _sdp_t.Any = None
        buf: _sdp_t.Any = data
        if not isinstance(data, bytes):
            if opts.numpy:
                # Views of the input itself, read-only: no copy.
                try:
                    buf = memoryview(data).cast("B").toreadonly()
                except TypeError:
                    buf = bytes(data)
            else:
                buf = bytes(data)
        if opts.numpy:
            self.np = _sdp_numpy()
        self.buf: bytes = buf
        self.pos = start
        self.end = len(buf)
        self.max_depth = opts.max_depth if opts.max_depth > 0 else _SDP_DEFAULT_DEPTH
        self.mem_limit = opts.memory_limit if opts.memory_limit > 0 else 32 * (len(buf) - start) + 1048576
        self.mem_used = 0

    def truncated(self, p: int, need: int, what: str) -> DecodeError:
        return DecodeError("truncated", p, "input ends inside " + what + ": need " + str(need) + " bytes, " + str(self.end - p) + " remain")

    def count(self, p: int, n: int, size: int) -> None:
        if n * size > self.end - self.pos:
            raise DecodeError("count", p, "count " + str(n) + " needs at least " + str(n * size) + " bytes, " + str(self.end - self.pos) + " remain")

    def charge(self, p: int, n: int, each: int) -> None:
        if n > (self.mem_limit - self.mem_used) // each:
            raise DecodeError("memory", p, str(n) + " values of nominal size " + str(each) + " would exceed the memory limit of " + str(self.mem_limit) + " bytes")
        self.mem_used += n * each

    def depth(self, name: str, depth: int) -> DecodeError:
        return DecodeError("depth", self.pos, name + " value at depth " + str(depth) + ": nesting exceeds the depth limit " + str(self.max_depth))

    def scalar(self, st: _sdp_struct.Struct, size: int, what: str) -> int:
        p = self.pos
        if p + size > self.end:
            raise self.truncated(p, size, what)
        self.pos = p + size
        v: int = st.unpack_from(self.buf, p)[0]
        return v

    def f64(self) -> float:
        p = self.pos
        if p + 8 > self.end:
            raise self.truncated(p, 8, "an f64")
        self.pos = p + 8
        v: float = _SDP_F64.unpack_from(self.buf, p)[0]
        return v

    def bool_(self) -> bool:
        p = self.pos
        if p >= self.end:
            raise self.truncated(p, 1, "a bool")
        b = self.buf[p]
        if b > 1:
            raise DecodeError("bool", p, "bool byte is " + hex(b) + ", not 0 or 1")
        self.pos = p + 1
        return b == 1

    def enum(self, st: _sdp_struct.Struct, size: int, cls: type[_SDP_E]) -> _SDP_E:
        p = self.pos
        n = self.scalar(st, size, "enum " + cls.__name__)
        try:
            return cls(n)
        except ValueError:
            raise DecodeError("enum", p, str(n) + " is not a value of enum " + cls.__name__) from None

    def enum_value(self, cls: type[_SDP_E], n: int, p: int) -> _SDP_E:
        try:
            return cls(n)
        except ValueError:
            raise DecodeError("enum", p, str(n) + " is not a value of enum " + cls.__name__) from None

    def fixed_bools(self, n: int) -> list[bool]:
        q = self.pos
        avail = min(n, self.end - q)
        raw = self.buf[q:q + avail]
        for i, b in enumerate(raw):
            if b > 1:
                raise _sdp_at(DecodeError("bool", q + i, "bool byte is " + hex(b) + ", not 0 or 1"), i)
        if avail < n:
            raise _sdp_at(self.truncated(q + avail, 1, "a bool"), avail)
        self.pos = q + n
        return [b == 1 for b in raw]

    def fixed(self, n: int, size: int, what: str) -> None:
        q = self.pos
        if q + n * size > self.end:
            i = (self.end - q) // size
            raise _sdp_at(self.truncated(q + i * size, size, what), i)

    def u8(self, what: str) -> int:
        p = self.pos
        if p >= self.end:
            raise self.truncated(p, 1, what)
        self.pos = p + 1
        return self.buf[p]

    def take(self, size: int, what: str) -> int:
        p = self.pos
        if p + size > self.end:
            raise self.truncated(p, size, what)
        self.pos = p + size
        return p

    def length(self, what: str) -> tuple[int, int]:
        p = self.pos
        if p + 4 > self.end:
            raise self.truncated(p, 4, what)
        self.pos = p + 4
        n: int = _SDP_U32.unpack_from(self.buf, p)[0]
        return p, n

    def str_(self) -> str:
        p = self.pos
        q = p + 4
        if q > self.end:
            raise self.truncated(p, 4, "a string length")
        n: int = _SDP_U32_FROM(self.buf, p)[0]
        if n > self.end - q:
            self.pos = q
            raise DecodeError("count", p, "string length " + str(n) + " exceeds the " + str(self.end - q) + " bytes remaining")
        self.pos = q + n
        try:
            # A bytes slice decodes faster than a memoryview slice (buf is
            # bytes, or a read-only memoryview with numpy=True).
            return str(self.buf[q:q + n], "utf-8")
        except UnicodeDecodeError as e:
            raise DecodeError("utf8", p, "string is not valid UTF-8 (at offset " + str(q + e.start) + ")") from None

    def bytes_(self, n: int) -> bytes:
        q = self.pos
        self.pos = q + n
        return bytes(self.buf[q:q + n])

    def bools(self, n: int) -> list[bool]:
        q = self.pos
        raw = bytes(self.buf[q:q + n])
        if raw.translate(None, b"\x00\x01"):
            for i, b in enumerate(raw):
                if b > 1:
                    raise _sdp_at(DecodeError("bool", q + i, "bool byte is " + hex(b) + ", not 0 or 1"), i)
        self.pos = q + n
        return [b == 1 for b in raw]

    def array(self, code: str, size: int, each: int) -> _sdp_t.Any:
        """A []T of a numeric T: length, count (rule 8) and memory (rule
        11, when each > 0) checks, then numbers()."""
        p = self.pos
        q = p + 4
        if q > self.end:
            raise self.truncated(p, 4, "an array count")
        n: int = _SDP_U32_FROM(self.buf, p)[0]
        self.pos = q
        if n * size > self.end - q:
            raise DecodeError("count", p, "count " + str(n) + " needs at least " + str(n * size) + " bytes, " + str(self.end - q) + " remain")
        if each:
            self.charge(p, n, each)
        if self.np is not None:
            self.pos = q + n * size
            return self.np.frombuffer(self.buf, _SDP_DTYPES[code], n, q)
        return self.numbers(code, n, size)

    def numbers(self, code: str, n: int, size: int) -> _sdp_t.Any:
        q = self.pos
        if self.np is not None:
            self.pos = q + n * size
            return self.np.frombuffer(self.buf, _SDP_DTYPES[code], n, q)
        a: _sdp_array.array[_sdp_t.Any] = _sdp_array.array(code)
        a.frombytes(memoryview(self.buf)[q:q + n * size])
        if _SDP_BIG:
            a.byteswap()
        self.pos = q + n * size
        return a

    def f32(self) -> float:
        p = self.pos
        if p + 4 > self.end:
            raise self.truncated(p, 4, "an f32")
        self.pos = p + 4
        return self.f32_at(p)

    def f32_at(self, p: int) -> float:
        bits: int = _SDP_U32.unpack_from(self.buf, p)[0]
        if bits & 0x7F800000 == 0x7F800000 and bits & 0x7FFFFF:
            # A NaN: build the f64 with the same payload, so that a
            # signalling NaN is not quieted by the conversion.
            d = (bits >> 31) << 63 | 0x7FF << 52 | (bits & 0x7FFFFF) << 29
            v: float = _SDP_F64.unpack(_SDP_U64.pack(d))[0]
            return v
        f: float = _SDP_F32.unpack_from(self.buf, p)[0]
        return f


def _sdp_numpy() -> _sdp_t.Any:
    """Imports numpy the first time it is needed."""
    global _sdp_np
    if _sdp_np is None:
        try:
            _sdp_np = _sdp_importlib.import_module("numpy")
        except ImportError as e:
            raise ImportError("DecodeOptions(numpy=True) needs numpy, which cannot be imported: " + str(e)) from None
    return _sdp_np


def _sdp_pack_f32(x: float) -> bytes:
    if _sdp_math.isnan(x):
        d: int = _SDP_U64.unpack(_SDP_F64.pack(x))[0]
        return _SDP_U32.pack((d >> 63) << 31 | 0x7F800000 | ((d >> 29) & 0x7FFFFF))
    return _SDP_F32.pack(x)


def _sdp_numbers(code: str, v: _sdp_t.Any) -> bytes | memoryview:
    a: _sdp_array.array[_sdp_t.Any] = v
    if not (isinstance(v, _sdp_array.array) and v.typecode == code):
        np = _sdp_sys.modules.get("numpy")
        if np is not None and isinstance(v, np.ndarray) and v.dtype.kind != "O":
            global _sdp_ndarray_type
            _sdp_ndarray_type = np.ndarray
            return _sdp_ndarray(np, code, v)
        a = _sdp_array.array(code, v)
    if _SDP_BIG:
        a = _sdp_array.array(code, a)
        a.byteswap()
        return a.tobytes()
    # The array's own bytes: the caller copies them once, into its output.
    return memoryview(a).cast("B")


# The numpy dtypes of _SDP_DTYPES, made once numpy is in use, and
# numpy.ndarray once an encoder has met one.
_sdp_np_dtypes: dict[str, _sdp_t.Any] = {}
_sdp_ndarray_type: _sdp_t.Any = None


def _sdp_ndarray(np: _sdp_t.Any, code: str, v: _sdp_t.Any) -> memoryview:
    """The little-endian bytes of a 1-D numpy array of numbers (any byte
    order, any strides), refusing what array.array would refuse: floats for
    integers, integers out of range, other kinds of values."""
    dt = _sdp_np_dtypes.get(code)
    if dt is None:
        dt = _sdp_np_dtypes[code] = np.dtype(_SDP_DTYPES[code])
    if v.ndim != 1:
        raise EncodeError("type", "a numpy array of " + str(v.ndim) + " dimensions is not a 1-D array")
    if v.dtype == dt:
        try:
            return memoryview(v).cast("B")
        except TypeError:
            pass  # not contiguous: copied below
    kind = v.dtype.kind
    if kind not in ("biuf" if dt.kind == "f" else "biu"):
        raise EncodeError("type", "a numpy array of " + str(v.dtype) + " does not encode as an array of " + str(dt))
    if v.dtype != dt:
        if kind in "iu" and dt.kind != "f" and len(v) and not np.can_cast(v.dtype, dt):
            info = np.iinfo(dt)
            lo, hi = int(v.min()), int(v.max())
            if lo < int(info.min) or hi > int(info.max):
                raise EncodeError("range", "a numpy array holds " + str(lo if lo < int(info.min) else hi) + ", out of the range of " + str(dt))
        with np.errstate(over="ignore", invalid="ignore"):
            v = v.astype(dt)
    return memoryview(np.ascontiguousarray(v)).cast("B")


def _sdp_count(n: int) -> bytes:
    if n >= 1 << 32:
        raise EncodeError("count", "a count of " + str(n) + " does not fit in a u32")
    return _SDP_U32.pack(n)


def _sdp_fixed(v: _sdp_t.Sized, n: int) -> None:
    if len(v) != n:
        raise EncodeError("length", "expected " + str(n) + " elements, got " + str(len(v)))


def _sdp_e_str(s: str, out: bytearray) -> None:
    b = s.encode("utf-8")
    out += _sdp_count(len(b))
    out += b


def _sdp_encode_into(b: bytes, buffer: _sdp_t.Any, offset: int) -> int:
    mv = memoryview(buffer).cast("B")
    if offset < 0 or offset + len(b) > len(mv):
        raise EncodeError("size", "the value needs " + str(len(b)) + " bytes at offset " + str(offset) + " of a " + str(len(mv)) + "-byte buffer")
    mv[offset:offset + len(b)] = b
    return len(b)


# What an encoder raises for a value that has no encoding (EncodeError is a
# ValueError): the check walk then finds the first bad value and its path.
_SDP_REFUSED = (_sdp_struct.error, OverflowError, TypeError, ValueError, AttributeError, BufferError, KeyError)


def _sdp_refused(check: _sdp_t.Callable[[_sdp_t.Any, str], None], v: _sdp_t.Any, e: BaseException) -> EncodeError:
    """The EncodeError of a value its encoder refused with e: the check walk
    of its type (_sdp_k_*) finds the first bad value in encoding order and
    names its rule and path. The C accelerator calls it too, so both
    implementations report the same error."""
    try:
        check(v, "")
    except EncodeError as found:
        return found
    if isinstance(e, EncodeError):
        return e
    if isinstance(e, OverflowError):
        # Every value encodes: the encoding is larger than the host's sizes.
        return EncodeError("size", str(e))
    return EncodeError("type", str(e))


def _sdp_run(fn: _sdp_t.Callable[[_SDP_T, bytearray], None], check: _sdp_t.Callable[[_sdp_t.Any, str], None], v: _SDP_T) -> bytes:
    out = bytearray()
    try:
        fn(v, out)
    except _SDP_REFUSED as e:
        raise _sdp_refused(check, v, e) from None
    return bytes(out)


def _sdp_frame(type_id: int, b: bytes) -> bytes:
    """b framed as a message of type_id: header, then payload."""
    if len(b) >= 1 << 32:
        raise EncodeError("message", "a payload of " + str(len(b)) + " bytes does not fit in a message (4 GiB or more)", "message")
    return _SDP_HEADER.pack(_SDP_MAGIC, type_id, len(b)) + b


def _sdp_tname(x: object) -> str:
    """The type of x as an error message names it."""
    return "None" if x is None else type(x).__name__


def _sdp_j(p: str, seg: str) -> str:
    """The path p followed by the field (or variant) seg."""
    return p + "." + seg if p else seg


# The check walk (_sdp_k_*): run only after an encoder refused a value, it
# goes through the value in encoding order with the same operations as the
# encoders and raises the EncodeError of the first bad value, with its path.
def _sdp_k_bool(x: _sdp_t.Any, p: str) -> None:
    try:
        _SDP_BOOL[x]
    except (KeyError, TypeError):
        raise EncodeError("type", "expected a bool, got " + _sdp_tname(x), p) from None


def _sdp_k_int(x: _sdp_t.Any, st: _sdp_struct.Struct, kind: str, p: str) -> None:
    try:
        st.pack(x)
    except (_sdp_struct.error, OverflowError, TypeError, ValueError):
        try:
            n = _sdp_operator.index(x)
        except TypeError:
            raise EncodeError("type", "expected an int (" + kind + "), got " + _sdp_tname(x), p) from None
        raise EncodeError("range", str(n) + " is out of the range of " + kind, p) from None


def _sdp_k_float(x: _sdp_t.Any, kind: str, p: str) -> None:
    try:
        if kind == "f32":
            _sdp_pack_f32(x)
        else:
            _SDP_F64.pack(x)
    except OverflowError:
        raise EncodeError("range", repr(x) + " is out of the range of " + kind, p) from None
    except (_sdp_struct.error, TypeError, ValueError):
        raise EncodeError("type", "expected a float (" + kind + "), got " + _sdp_tname(x), p) from None


def _sdp_k_str(x: _sdp_t.Any, p: str) -> None:
    if not isinstance(x, str):
        raise EncodeError("type", "expected a str, got " + _sdp_tname(x), p)
    try:
        b = x.encode("utf-8")
    except UnicodeEncodeError as e:
        raise EncodeError("utf8", "a str holding a lone surrogate (U+" + format(ord(x[e.start]), "04X") + " at index " + str(e.start) + ") has no UTF-8 encoding", p) from None
    if len(b) >= 1 << 32:
        raise EncodeError("count", "a str of " + str(len(b)) + " UTF-8 bytes is over the limit of 4294967295", p)


def _sdp_k_enum(x: _sdp_t.Any, cls: type[_sdp_enum.IntEnum], name: str, p: str) -> None:
    try:
        cls(x)
    except (TypeError, ValueError):
        try:
            n = _sdp_operator.index(x)
        except TypeError:
            raise EncodeError("type", "expected a " + name + ", got " + _sdp_tname(x), p) from None
        raise EncodeError("enum", str(n) + " is not a value of enum " + name, p) from None


def _sdp_k_len(x: _sdp_t.Any, fixed: int, what: str, p: str) -> int:
    """The number of elements of an array (what: its type), refusing a value
    without one, and a fixed array (fixed >= 0) of another length."""
    try:
        n = len(x)
    except TypeError:
        raise EncodeError("type", "expected " + what + ", got " + _sdp_tname(x), p) from None
    if fixed >= 0 and n != fixed:
        raise EncodeError("length", "expected " + what + " (" + str(fixed) + " elements), got " + str(n) + " elements", p)
    if n >= 1 << 32:
        raise EncodeError("count", "an array of " + str(n) + " elements is over the limit of 4294967295", p)
    return n


def _sdp_k_bytes(x: _sdp_t.Any, fixed: int, what: str, p: str) -> None:
    _sdp_k_len(x, fixed, what, p)
    try:
        _sdp_put(bytearray(), x)
    except (TypeError, ValueError, BufferError):
        if isinstance(x, (list, tuple)):
            for i, y in enumerate(x):
                _sdp_k_int(y, _SDP_U8, "u8", p + "[" + str(i) + "]")
        raise EncodeError("type", "expected " + what + " (bytes or a sequence of ints), got " + _sdp_tname(x), p) from None


def _sdp_k_numbers(x: _sdp_t.Any, fixed: int, code: str, kind: str, what: str, p: str) -> None:
    _sdp_k_len(x, fixed, what, p)
    try:
        _sdp_numbers(code, x)
        return
    except EncodeError as e:
        err: Exception = e
    except (_sdp_struct.error, OverflowError, TypeError, ValueError, BufferError) as e:
        err = e
    st = _sdp_struct.Struct("<" + code)
    for i, y in enumerate(x):
        q = p + "[" + str(i) + "]"
        if code in "fd":
            _sdp_k_float(y, kind, q)
        else:
            _sdp_k_int(y, st, kind, q)
    if isinstance(err, EncodeError):
        err.path = p
        raise err
    raise EncodeError("type", "expected " + what + ", got " + _sdp_tname(x) + " (" + str(err) + ")", p)


def _sdp_k_fields(x: _sdp_t.Any, names: tuple[str, ...], what: str, p: str) -> None:
    """Refuses a value that is not a what and lacks one of its fields."""
    for n in names:
        if not hasattr(x, n):
            raise EncodeError("type", "expected " + what + ", got " + _sdp_tname(x), p)


# Arrays of at least this many bytes are not copied into the encoder's
# bytearray when it is a _SdpParts: they are kept aside, at their positions,
# and the result is joined from both, so that their bytes are copied once
# (bytes(bytearray) would copy them a second time).
_SDP_PART_MIN = 1 << 14


class _SdpParts(bytearray):
    """The output of an encoder of a type that holds arrays: the bytes, and
    the large arrays left out of them with the positions they go to."""

    __slots__ = ("parts",)
    parts: list[tuple[int, _sdp_t.Any, int]]  # (position, buffer, its size in bytes)


def _sdp_put(out: bytearray, b: _sdp_t.Any) -> None:
    """Appends an array's bytes: bytes and byte memoryviews (what
    _sdp_numbers returns) are kept aside when large; a list or tuple of
    ints is appended as the bytes it holds."""
    if type(out) is _SdpParts and (type(b) is bytes or type(b) is memoryview) and len(b) >= _SDP_PART_MIN:
        out.parts.append((len(out), b, len(b)))
    else:
        try:
            out += b
        except TypeError:
            if not isinstance(b, (list, tuple)):
                raise
            out += bytes(b)


def _sdp_put_numbers(out: bytearray, code: str, v: _sdp_t.Any) -> None:
    """Appends the elements of a numeric array (_sdp_numbers). A large,
    contiguous 1-D numpy array of the wire's dtype is kept aside as it is:
    its bytes are the encoding, copied once when the result is joined."""
    if type(v) is _sdp_ndarray_type and type(out) is _SdpParts and v.nbytes >= _SDP_PART_MIN and not _SDP_BIG \
            and v.ndim == 1 and v.dtype == _sdp_np_dtypes.get(code) and v.flags.c_contiguous:
        out.parts.append((len(out), v, v.nbytes))
        return
    _sdp_put(out, _sdp_numbers(code, v))


def _sdp_run_parts(fn: _sdp_t.Callable[[_SDP_T, bytearray], None], check: _sdp_t.Callable[[_sdp_t.Any, str], None], v: _SDP_T,
                   type_id: int = -1) -> bytes:
    """_sdp_run for a type that holds arrays; with a type_id, the value is
    framed as a message."""
    out = _SdpParts()
    out.parts = []
    try:
        if type_id >= 0:
            out += _SDP_HEADER.pack(_SDP_MAGIC, type_id, 0)
        fn(v, out)
        parts = out.parts
        if type_id >= 0:
            n = len(out) - MESSAGE_HEADER_SIZE + sum(n for _, _, n in parts)
            if n >= 1 << 32:
                raise EncodeError("message", "a payload of " + str(n) + " bytes does not fit in a message (4 GiB or more)", "message")
            out[6:10] = _SDP_U32.pack(n)
        if not parts:
            return bytes(out)
        if len(parts) == 1 and parts[0][0] == len(out):
            return b"".join((out, parts[0][1]))  # the array ends the value
        view = memoryview(out)
        pieces: list[_sdp_t.Any] = []
        prev = 0
        for at, b, _ in parts:
            pieces.append(view[prev:at])
            pieces.append(b)
            prev = at
        pieces.append(view[prev:])
        return b"".join(pieces)
    except EncodeError as e:
        if e.rule == "message":
            raise
        raise _sdp_refused(check, v, e) from None
    except _SDP_REFUSED as e:
        raise _sdp_refused(check, v, e) from None


def _sdp_into(dst: _sdp_t.Any, src: _sdp_t.Any) -> None:
    """Moves every field of src (just decoded) into dst."""
    for f in _sdp_dc.fields(src):
        setattr(dst, f.name, getattr(src, f.name))


def _sdp_top(r: _SdpReader, fn: _sdp_t.Callable[[_SdpReader, int], _SDP_T], exact: bool) -> _SDP_T:
    try:
        v = fn(r, 1)
    except RecursionError:
        raise DecodeError("depth", r.pos, "nesting exceeds Python's recursion limit") from None
    if exact and r.pos != r.end:
        raise DecodeError("trailing", r.pos, str(r.end - r.pos) + " bytes remain after the value")
    return v


def _sdp_header(data: _sdp_t.Any, want: int | None) -> tuple[int, int]:
    if len(data) < 10:
        raise DecodeError("truncated", 0, "input ends inside the message header: need 10 bytes, " + str(len(data)) + " remain", "message")
    magic, tid, n = _SDP_HEADER.unpack_from(data, 0)
    if magic != _SDP_MAGIC:
        raise DecodeError("message", 0, "bad magic " + magic.hex() + ", want 53445032", "message")
    if tid not in _SDP_TYPES or (want is not None and tid != want):
        raise DecodeError("message", 4, "type id " + str(tid) + " is not expected here", "message")
    if n != len(data) - 10:
        raise DecodeError("message", 6, "payload length is " + str(n) + ", but " + str(len(data) - 10) + " bytes follow the header", "message")
    return tid, n


def decode_message(data: _sdp_t.Any, options: DecodeOptions | None = None) -> _sdp_t.Any:
    """Decodes a message (header and payload) as the struct its type id names."""
    tid, _ = _sdp_header(data, None)
    r = _SdpReader(data, options, 10)
    return _sdp_top(r, _SDP_TYPES[tid], True)


class MessageReader:
    """Reads messages one at a time from a binary file object. max_size
    (default DEFAULT_MAX_MESSAGE_SIZE, 64 MiB, as in every language; 0 or
    less means the default, 0xFFFFFFFF is the loosest) refuses a larger
    declared payload before reading it. Errors are DecodeErrors whose offset
    counts from the start of the stream, whose index is the message's
    position and whose start is the stream offset of its first byte.

    A hello (MessageWriter.write_hello) as the stream's first message is
    checked, not returned: the next message has index 1, and schema_checked
    becomes True. A hello that gives a struct of this schema another
    fingerprint is refused with rule schema, naming the struct; a malformed
    one with rule message. require_hello refuses a stream whose first
    message is not a hello (rule schema at offset 4; an empty stream is not
    refused).

    After an error whose message was read whole (e.skippable: a payload its
    decoder rejects, an unknown type id, a hello after the first message)
    the next read goes on with the next message; after any other error (a
    cut or bad header, a payload over max_size or cut, a refused or missing
    hello) the stream cannot be followed and every read raises the same
    error again (docs/wire-format.md, "Streams")."""

    def __init__(self, f: _sdp_t.BinaryIO, max_size: int = DEFAULT_MAX_MESSAGE_SIZE, options: DecodeOptions | None = None,
                 require_hello: bool = False) -> None:
        self.f = f
        self.max_size = max_size if max_size > 0 else DEFAULT_MAX_MESSAGE_SIZE
        self.options = options
        self.require_hello = require_hello
        self.schema_checked = False
        self.index = 0
        self.offset = 0
        self._sdp_failed: DecodeError | None = None

    def _read(self, n: int) -> bytes:
        parts = []
        left = n
        while left > 0:
            chunk = self.f.read(min(left, 1 << 20))
            if not chunk:
                break
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    def _fail(self, e: DecodeError, base: int) -> DecodeError:
        e.offset += base
        e.index = self.index
        e.start = base
        return e

    def _stick(self, e: DecodeError, base: int) -> DecodeError:
        self._sdp_failed = self._fail(e, base)
        return self._sdp_failed

    def _skip(self, e: DecodeError, base: int, size: int) -> DecodeError:
        """The error of a message read whole (size bytes at base): the
        reader goes on with the next one."""
        self._fail(e, base)
        e.skippable = True
        self.index += 1
        self.offset = base + size
        return e

    def _discard(self, n: int) -> bool:
        """Reads and drops n bytes; whether they were all there."""
        while n > 0:
            chunk = self.f.read(min(n, 1 << 16))
            if not chunk:
                return False
            n -= len(chunk)
        return True

    def _check_hello(self, p: bytes, start: int) -> None:
        if len(p) < 4:
            raise self._stick(DecodeError("message", 6, "a hello's payload holds a u32 count and 10 bytes per struct; this one has " + str(len(p)) + " bytes", "message"), start)
        (count,) = _SDP_U32.unpack_from(p, 0)
        if len(p) != 4 + 10 * count:
            raise self._stick(DecodeError("message", 6, "a hello of " + str(count) + " structs has a payload of " + str(len(p)) + " bytes", "message"), start)
        prev = 0
        for i in range(count):
            tid, theirs = _SDP_HELLO_ENTRY.unpack_from(p, 4 + 10 * i)
            if tid <= prev:
                raise self._stick(DecodeError("message", 14 + 10 * i, "hello entry " + str(i) + " has type id " + str(tid) + ": type ids must be above 0 and increasing", "message"), start)
            prev = tid
            mine = _SDP_HELLO.get(tid)
            if mine is not None and mine[1] != theirs:
                raise self._stick(DecodeError("schema", 16 + 10 * i, "the writer's schema has another version of " + mine[0] + " (type id " + str(tid) + "): fingerprint " + format(theirs, "016x") + ", here " + format(mine[1], "016x") + "; run `sdp compat` on the two schemas", "message"), start)
        self.schema_checked = True

    def read_message(self) -> _sdp_t.Any:
        """Returns the next message's struct, or None at the end of the stream."""
        if self._sdp_failed is not None:
            raise self._sdp_failed
        start = self.offset
        head = self._read(10)
        if not head:
            return None
        if len(head) < 10:
            raise self._stick(DecodeError("truncated", 0, "the stream ends inside a message header", "message"), start)
        magic, tid, n = _SDP_HEADER.unpack_from(head, 0)
        if magic != _SDP_MAGIC:
            raise self._stick(DecodeError("message", 0, "bad magic " + magic.hex(), "message"), start)
        hello = tid == 0 and self.index == 0
        if self.require_hello and self.index == 0 and not hello:
            raise self._stick(DecodeError("schema", 4, "the stream does not start with a hello (type id 0), and this reader requires one", "message"), start)
        if not hello and tid not in _SDP_TYPES:
            if tid == 0:
                e = DecodeError("message", 4, "a hello (type id 0) may only be a stream's first message; this is message #" + str(self.index), "message")
            else:
                e = DecodeError("message", 4, "type id " + str(tid) + " names no struct", "message")
            # A payload within the maximum is skipped, so reading can go on.
            if n > self.max_size or not self._discard(n):
                raise self._stick(e, start)
            raise self._skip(e, start, 10 + n)
        if n > self.max_size:
            raise self._stick(DecodeError("message", 6, "payload length " + str(n) + " is over the maximum of " + str(self.max_size), "message"), start)
        payload = self._read(n)
        if len(payload) < n:
            raise self._stick(DecodeError("truncated", 10, "the stream ends inside a payload", "message"), start)
        if hello:
            self.offset = start + 10 + n
            self._check_hello(payload, start)
            self.index = 1
            return self.read_message()
        try:
            v = decode_message(head + payload, self.options)
        except DecodeError as e:
            raise self._skip(e, start, 10 + n) from None
        self.index += 1
        self.offset = start + 10 + n
        return v

    def __iter__(self) -> _sdp_t.Iterator[_sdp_t.Any]:
        while True:
            v = self.read_message()
            if v is None:
                return
            yield v


class MessageWriter:
    """Writes messages one after the other to a binary file object, one
    write call per message. max_size (default DEFAULT_MAX_MESSAGE_SIZE, as
    MessageReader's; 0 or less means the default) refuses a message whose
    payload is larger with an EncodeError (rule message, path "message"),
    writing nothing; the writer can go on."""

    def __init__(self, f: _sdp_t.BinaryIO, max_size: int = DEFAULT_MAX_MESSAGE_SIZE) -> None:
        self.f = f
        self.max_size = max_size if max_size > 0 else DEFAULT_MAX_MESSAGE_SIZE

    def write_hello(self) -> None:
        """Writes a hello: the fingerprint of every struct of the schema, by
        type id (docs/wire-format.md, "The schema check (hello)"). Call it
        first, if at all: a reader built from another version of the schema
        then refuses the stream (rule schema) before any data is decoded. A
        stream without a hello is what SDP 0.2 writes."""
        b = bytearray(_SDP_HEADER.pack(_SDP_MAGIC, 0, 4 + 10 * len(_SDP_HELLO)))
        b += _SDP_U32.pack(len(_SDP_HELLO))
        for tid, (_, fp) in _SDP_HELLO.items():
            b += _SDP_HELLO_ENTRY.pack(tid, fp)
        self.f.write(b)

    def write_message(self, value: _sdp_t.Any) -> None:
        """Writes value (a struct of the schema) as a message; EncodeError,
        writing nothing, when it cannot be encoded or its payload is over
        max_size."""
        b = value.encode_message()
        n = len(b) - MESSAGE_HEADER_SIZE
        if n > self.max_size:
            raise EncodeError("message", "a payload of " + str(n) + " bytes is over the writer's maximum size of " + str(self.max_size), "message")
        self.f.write(b)
