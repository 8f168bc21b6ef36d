//! The SDP runtime: decode errors, the bounds-checked reader, zero-copy array
//! views and the helpers the generated encoders and decoders share.
//!
//! Every read checks its bounds and reports a [`DecodeError`]; nothing here
//! panics on any input.

use std::fmt;
use std::io;

/// The default nesting limit: the top-level struct is at depth 1.
pub const DEFAULT_MAX_DEPTH: u32 = 64;

/// The default largest message payload a message stream reader accepts.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 64 << 20;

/// The 4 bytes that start every message: `SDP2`.
pub const MESSAGE_MAGIC: [u8; 4] = *b"SDP2";

/// The size of a message header: magic, u16 type id, u32 payload length.
pub const MESSAGE_HEADER_SIZE: usize = 10;

/// The default memory limit is `MEMORY_RATIO` bytes per input byte plus
/// [`MEMORY_ALLOWANCE`] (rule 11 of the wire format, `memory`).
pub const MEMORY_RATIO: u64 = 32;

/// The fixed part of the default memory limit: 1 MiB.
pub const MEMORY_ALLOWANCE: u64 = 1 << 20;

/// The default memory limit for an input of `n` bytes (for a message, its
/// payload): `32 × n + 1 MiB`, saturating.
pub const fn default_memory_limit(n: usize) -> u64 {
    (n as u64)
        .saturating_mul(MEMORY_RATIO)
        .saturating_add(MEMORY_ALLOWANCE)
}

/// Decode options: the limits a decoder enforces. The default allows nesting 64 levels deep and a memory
/// total of `32 × N + 1 MiB` for an input of N bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodeOptions {
    /// The deepest nesting accepted; the top-level struct is at depth 1 and
    /// every struct or union value inside another is one deeper. 0 means
    /// the default, [`DEFAULT_MAX_DEPTH`].
    pub max_depth: u32,
    /// The most nominal memory, in bytes, that the charged arrays and
    /// optionals of one decoded value may add up to (rule 11 of the wire
    /// format, `memory`); 0 means the default, [`default_memory_limit`] of
    /// the input length.
    pub memory_limit: u64,
}

impl DecodeOptions {
    /// The default options.
    pub const fn new() -> Self {
        DecodeOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            memory_limit: 0,
        }
    }

    /// These options with another maximum depth (0: the default).
    pub const fn with_max_depth(self, max_depth: u32) -> Self {
        DecodeOptions { max_depth, ..self }
    }

    /// These options with another memory limit in bytes (0: the default).
    pub const fn with_memory_limit(self, memory_limit: u64) -> Self {
        DecodeOptions {
            memory_limit,
            ..self
        }
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions::new()
    }
}

/// What went wrong while decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended inside a value.
    Truncated,
    /// Bytes remained after the top-level value.
    TrailingBytes,
    /// A bool byte other than 0 or 1.
    InvalidBool(u8),
    /// An optional's presence byte other than 0 or 1.
    InvalidPresence(u8),
    /// An enum number that names no value.
    UnknownEnumValue(u32),
    /// A union tag at or past the number of variants.
    UnknownUnionTag(u8),
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// An array count or string length larger than the remaining input allows.
    CountTooLarge(u32),
    /// Nesting deeper than the configured limit (the limit is given).
    DepthLimitExceeded(u32),
    /// Arrays or optionals whose nominal memory would exceed the memory
    /// limit (the limit is given).
    MemoryLimitExceeded(u64),
    /// A message that does not start with `SDP2`.
    BadMagic,
    /// A message type id the schema does not define.
    UnknownTypeId(u16),
    /// A message of another type than the one asked for.
    WrongTypeId {
        /// The type id asked for.
        expected: u16,
        /// The type id in the header.
        found: u16,
    },
    /// A message whose declared payload length differs from the bytes that follow.
    PayloadLengthMismatch {
        /// The length in the header.
        declared: u32,
        /// The bytes that follow the header.
        actual: usize,
    },
    /// A streamed message declared a payload above the reader's maximum.
    MessageTooLarge {
        /// The length in the header.
        declared: u32,
        /// The reader's maximum.
        max: usize,
    },
    /// A hello whose payload is not a u32 count N and N entries of 10
    /// bytes (rule `message`).
    HelloLength {
        /// The payload's length in bytes.
        payload: usize,
    },
    /// A hello entry with type id 0, or a type id not above the previous
    /// entry's (rule `message`).
    HelloTypeId {
        /// The entry's index in the hello, from 0.
        entry: u32,
        /// Its type id.
        type_id: u16,
    },
    /// The stream's hello gives a struct of this schema another fingerprint:
    /// the writer was built from another version of the schema (rule
    /// `schema`).
    SchemaMismatch {
        /// The struct's type id.
        type_id: u16,
        /// The struct's schema name.
        name: &'static str,
        /// The fingerprint in the writer's hello.
        theirs: u64,
        /// The fingerprint in this schema.
        ours: u64,
    },
    /// The reader requires a hello and the stream's first message is not
    /// one (rule `schema`).
    HelloRequired,
}

/// `DecodeError::index` of an error that is not a stream reader's.
const NO_INDEX: usize = usize::MAX;

/// The result of decoding.
pub type DecodeResult<T> = Result<T, DecodeError>;

/// A decoding failure: what failed, at which byte offset of the input, in
/// which type and at which field path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    offset: usize,
    within: Option<&'static str>,
    field: Option<&'static str>,
    // The index of a stream reader's bad message (NO_INDEX: none) and the
    // stream offset of its header; a sentinel rather than an Option, so
    // that the error stays within 120 bytes.
    index: usize,
    start: usize,
    skippable: bool,
    // Built on the error path only, while the error unwinds.
    path: Option<Box<str>>,
}

impl DecodeError {
    /// An error of the given kind at a byte offset.
    pub const fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError {
            kind,
            offset,
            within: None,
            field: None,
            index: NO_INDEX,
            start: 0,
            skippable: false,
            path: None,
        }
    }

    /// What went wrong.
    pub const fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The name of the broken rule in the wire format specification (see
    /// [`DecodeErrorKind::rule`]).
    pub const fn rule(&self) -> &'static str {
        self.kind.rule()
    }

    /// The byte offset in the input where the offending value starts. For
    /// an error of a stream reader it counts from the start of the stream
    /// (see [`DecodeError::message_index`]).
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// For an error of a stream reader, the index of the bad message in the
    /// stream (from 0); [`DecodeError::offset`] then counts from the start
    /// of the stream, as the wire format's "Streams" table says. `None` for
    /// the other decoders, whose offsets count from the start of their input.
    pub const fn message_index(&self) -> Option<usize> {
        if self.index == NO_INDEX {
            None
        } else {
            Some(self.index)
        }
    }

    /// For an error of a stream reader, the stream offset of the bad
    /// message's first byte (its header); [`DecodeError::offset`] minus it
    /// is the offset within the message. `None` for the other decoders.
    pub const fn message_offset(&self) -> Option<usize> {
        if self.index == NO_INDEX {
            None
        } else {
            Some(self.start)
        }
    }

    /// Whether a stream reader read the whole bad message (a payload its
    /// decoder rejects, an unknown type id, a hello after the first
    /// message), so that its next read goes on with the next one. After any
    /// other stream error the stream cannot be followed: `read_message`
    /// returns the same error again (docs/wire-format.md, "Streams").
    pub const fn is_skippable(&self) -> bool {
        self.skippable
    }

    /// The field path of the offending value, the same in every SDP backend
    /// (docs/wire-format.md, "Where an error is"): schema field names joined
    /// by `.`, `[i]` for array elements, a union variant's name before its
    /// contents (`plugins[3].parameters[0].display_name`,
    /// `shape.Rect.width`); `"message"` for a message header; empty at the
    /// top level.
    pub fn path(&self) -> &str {
        self.path.as_deref().unwrap_or("")
    }

    /// The error with `segment` put in front of its path.
    #[doc(hidden)]
    #[cold]
    #[must_use]
    pub fn with_path_prefix(mut self, segment: &str) -> Self {
        if segment.is_empty() {
            return self;
        }
        let mut path = String::from(segment);
        match self.path.as_deref() {
            Some(rest) if rest.starts_with('[') => path.push_str(rest),
            Some(rest) if !rest.is_empty() => {
                path.push('.');
                path.push_str(rest);
            }
            _ => {}
        }
        self.path = Some(path.into_boxed_str());
        self
    }

    /// The innermost schema type being decoded, if known.
    pub const fn within(&self) -> Option<&'static str> {
        self.within
    }

    /// The innermost struct field being decoded, as `Struct.field`, if known.
    pub const fn field(&self) -> Option<&'static str> {
        self.field
    }

    /// Records the type being decoded unless an inner type already did.
    #[doc(hidden)]
    pub fn inside(mut self, type_name: &'static str) -> Self {
        if self.within.is_none() {
            self.within = Some(type_name);
        }
        self
    }

    /// Records the struct field being decoded unless an inner one already
    /// did, and puts the struct's part of the field path in front of the
    /// path; `find`, given the error's offset, names the field and writes
    /// that part (it runs on this error path only).
    #[doc(hidden)]
    #[cold]
    pub fn in_field(
        mut self,
        type_name: &'static str,
        find: impl FnOnce(usize, &mut String) -> Option<&'static str>,
    ) -> Self {
        let mut segment = String::new();
        let field = find(self.offset, &mut segment);
        if self.field.is_none() {
            self.field = field;
        }
        self.with_path_prefix(&segment).inside(type_name)
    }
}

impl DecodeErrorKind {
    /// The name of the broken rule in the wire format specification, the
    /// same in every SDP backend: `"truncated"`, `"trailing"`, `"bool"`,
    /// `"presence"`, `"enum"`, `"union_tag"`, `"utf8"`, `"count"`,
    /// `"depth"`, `"memory"` or `"message"` (a bad message header, a
    /// streamed message above the reader's maximum, or a malformed or
    /// misplaced hello), and for streams `"schema"` (a hello from another
    /// version of the schema, or none where one is required).
    pub const fn rule(&self) -> &'static str {
        match *self {
            DecodeErrorKind::Truncated => "truncated",
            DecodeErrorKind::TrailingBytes => "trailing",
            DecodeErrorKind::InvalidBool(_) => "bool",
            DecodeErrorKind::InvalidPresence(_) => "presence",
            DecodeErrorKind::UnknownEnumValue(_) => "enum",
            DecodeErrorKind::UnknownUnionTag(_) => "union_tag",
            DecodeErrorKind::InvalidUtf8 => "utf8",
            DecodeErrorKind::CountTooLarge(_) => "count",
            DecodeErrorKind::DepthLimitExceeded(_) => "depth",
            DecodeErrorKind::MemoryLimitExceeded(_) => "memory",
            DecodeErrorKind::BadMagic
            | DecodeErrorKind::UnknownTypeId(_)
            | DecodeErrorKind::WrongTypeId { .. }
            | DecodeErrorKind::PayloadLengthMismatch { .. }
            | DecodeErrorKind::MessageTooLarge { .. }
            | DecodeErrorKind::HelloLength { .. }
            | DecodeErrorKind::HelloTypeId { .. } => "message",
            DecodeErrorKind::SchemaMismatch { .. } | DecodeErrorKind::HelloRequired => "schema",
        }
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeErrorKind::Truncated => f.write_str("input ends inside a value"),
            DecodeErrorKind::TrailingBytes => f.write_str("trailing bytes after the value"),
            DecodeErrorKind::InvalidBool(b) => write!(f, "invalid bool byte 0x{b:02x}"),
            DecodeErrorKind::InvalidPresence(b) => write!(f, "invalid presence byte 0x{b:02x}"),
            DecodeErrorKind::UnknownEnumValue(v) => write!(f, "unknown enum value {v}"),
            DecodeErrorKind::UnknownUnionTag(t) => write!(f, "unknown union tag {t}"),
            DecodeErrorKind::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            DecodeErrorKind::CountTooLarge(n) => {
                write!(f, "count {n} exceeds the remaining input")
            }
            DecodeErrorKind::DepthLimitExceeded(l) => write!(f, "nesting exceeds depth limit {l}"),
            DecodeErrorKind::MemoryLimitExceeded(l) => {
                write!(f, "decoded values exceed the memory limit of {l} bytes")
            }
            DecodeErrorKind::BadMagic => f.write_str("message does not start with SDP2"),
            DecodeErrorKind::UnknownTypeId(id) => write!(f, "unknown message type id {id}"),
            DecodeErrorKind::WrongTypeId { expected, found } => {
                write!(f, "message type id {found}, expected {expected}")
            }
            DecodeErrorKind::PayloadLengthMismatch { declared, actual } => write!(
                f,
                "message declares {declared} payload bytes but {actual} follow"
            ),
            DecodeErrorKind::MessageTooLarge { declared, max } => {
                write!(
                    f,
                    "message payload of {declared} bytes exceeds maximum {max}"
                )
            }
            DecodeErrorKind::HelloLength { payload } => write!(
                f,
                "a hello's payload of {payload} bytes is not a u32 count N and N entries of 10 bytes"
            ),
            DecodeErrorKind::HelloTypeId { entry, type_id } => write!(
                f,
                "hello entry {entry} has type id {type_id}: type ids must be above 0 and strictly increasing"
            ),
            DecodeErrorKind::SchemaMismatch {
                type_id,
                name,
                theirs,
                ours,
            } => write!(
                f,
                "the writer's schema has another version of {name} (type id {type_id}): \
                 fingerprint {theirs:016x}, here {ours:016x}; compare the two schemas with `sdp compat`"
            ),
            DecodeErrorKind::HelloRequired => f.write_str(
                "the stream does not start with a hello (type id 0), and this reader requires one",
            ),
        }
    }
}

/// The layout of every SDP language (docs/api.md, "One layout of error
/// text"): `<rule> at offset <offset> in <path>: <message>` (without ` in
/// <path>` at the top level); for a stream reader's error, `message <index>
/// at stream offset <start>: ` first, and the offset counted from the
/// message's header.
impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut offset = self.offset;
        if let Some(i) = self.message_index() {
            write!(f, "message {i} at stream offset {}: ", self.start)?;
            offset = offset.saturating_sub(self.start);
        }
        write!(f, "{} at offset {offset}", self.rule())?;
        let path = self.path();
        if !path.is_empty() {
            write!(f, " in {path}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for DecodeError {}

/// An error reading or writing a message stream: I/O, decoding or
/// encoding. A [`StreamError::Decode`] names the bad message's index
/// ([`DecodeError::message_index`]) and counts its offset from the start of
/// the stream.
#[derive(Debug)]
pub enum StreamError {
    /// The underlying reader or writer failed.
    Io(io::Error),
    /// A message was malformed.
    Decode(DecodeError),
    /// A `MessageWriter` refused a message, writing nothing: its payload
    /// is over the writer's maximum size ([`EncodeError::max_size`]) or a
    /// length does not fit the wire format's u32.
    Encode(EncodeError),
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Io(e) => write!(f, "sdp stream: {e}"),
            StreamError::Decode(e) => e.fmt(f),
            StreamError::Encode(e) => e.fmt(f),
        }
    }
}

impl StreamError {
    /// Whether the reader or writer can go on after the error: a
    /// [`DecodeError::is_skippable`] decode error, or an encode error (the
    /// writer wrote nothing); never an I/O error.
    pub fn is_skippable(&self) -> bool {
        match self {
            StreamError::Io(_) => false,
            StreamError::Decode(e) => e.is_skippable(),
            StreamError::Encode(_) => true,
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamError::Io(e) => Some(e),
            StreamError::Decode(e) => Some(e),
            StreamError::Encode(e) => Some(e),
        }
    }
}

impl From<EncodeError> for StreamError {
    fn from(e: EncodeError) -> Self {
        StreamError::Encode(e)
    }
}

impl From<io::Error> for StreamError {
    fn from(e: io::Error) -> Self {
        StreamError::Io(e)
    }
}

impl From<DecodeError> for StreamError {
    fn from(e: DecodeError) -> Self {
        StreamError::Decode(e)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A struct of numbers only whose memory is its wire encoding on a
/// little-endian host (`#[repr(C)]`, each number at the offset of its
/// encoding, no padding): arrays of it are encoded and decoded with one copy
/// there, and element by element elsewhere.
///
/// # Safety
///
/// `SIZE` is both `size_of::<Self>()` and the encoded size, every bit pattern
/// of that size is a valid value, and on a little-endian host a value's bytes
/// are its encoding. The generator implements it only for such structs and
/// asserts their layout at compile time; do not implement it by hand.
#[doc(hidden)]
pub unsafe trait Plain: Sized {
    /// The encoded size, equal to the size in memory.
    const SIZE: usize;
    /// The nesting one value takes: 1 plus that of its deepest nested struct.
    const DEPTH: u32;
    /// Appends the encoding of one value.
    fn put_plain(&self, out: &mut Vec<u8>);
}

/// A scalar with a fixed little-endian encoding: the element types of
/// [`LeSlice`]. Implemented for `bool`, the integers and the floats.
pub trait Scalar: Copy + Default + PartialEq + fmt::Debug + sealed::Sealed {
    /// The encoded size in bytes.
    const SIZE: usize;

    /// Decodes one value from exactly `SIZE` bytes that were validated.
    #[doc(hidden)]
    fn from_chunk(chunk: &[u8]) -> Self;

    /// Checks every encoded element; returns the index of the first invalid one.
    #[doc(hidden)]
    fn validate(_bytes: &[u8]) -> Result<(), usize> {
        Ok(())
    }

    /// Decodes validated bytes holding `n` elements.
    #[doc(hidden)]
    fn vec_from_le(bytes: &[u8], n: usize) -> Vec<Self> {
        let mut out = Vec::with_capacity(n.min(bytes.len() / Self::SIZE));
        out.extend(bytes.chunks_exact(Self::SIZE).map(Self::from_chunk));
        out
    }

    /// Appends the elements of validated bytes to `out` (in bulk on
    /// little-endian hosts).
    #[doc(hidden)]
    #[inline]
    fn extend_from_le(out: &mut Vec<Self>, bytes: &[u8]) {
        out.extend(bytes.chunks_exact(Self::SIZE).map(Self::from_chunk));
    }

    /// Appends the encoding of one value.
    #[doc(hidden)]
    fn put_le(self, out: &mut Vec<u8>);

    /// Appends the encoding of every element (element by element; numeric
    /// types copy in bulk on little-endian hosts).
    #[doc(hidden)]
    fn extend_le(out: &mut Vec<u8>, values: &[Self]) {
        for v in values {
            v.put_le(out);
        }
    }

    /// Views validated bytes as a slice of `Self` without copying, where the
    /// host is little-endian and the bytes are suitably aligned.
    #[doc(hidden)]
    fn cast_slice(_bytes: &[u8]) -> Option<&[Self]> {
        None
    }
}

impl sealed::Sealed for bool {}

impl Scalar for bool {
    const SIZE: usize = 1;

    fn from_chunk(chunk: &[u8]) -> Self {
        chunk.first().is_some_and(|b| *b != 0)
    }

    fn validate(bytes: &[u8]) -> Result<(), usize> {
        match bytes.iter().position(|b| *b > 1) {
            Some(i) => Err(i),
            None => Ok(()),
        }
    }

    fn put_le(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
}

macro_rules! numeric_scalar {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}

        impl Scalar for $t {
            const SIZE: usize = ::core::mem::size_of::<$t>();

            #[inline]
            fn from_chunk(chunk: &[u8]) -> Self {
                match chunk.try_into() {
                    Ok(a) => <$t>::from_le_bytes(a),
                    Err(_) => <$t>::default(),
                }
            }

            // Measured: the safe element-wise loop is ~2.7x more instructions
            // than this bulk copy, while decoding (`vec_from_le`) compiles
            // to the same code either way and stays safe.
            #[cfg(target_endian = "little")]
            fn extend_le(out: &mut Vec<u8>, values: &[Self]) {
                // SAFETY: `$t` has no padding and no invalid bytes, so its
                // memory can be read as `size_of_val(values)` initialized
                // bytes; the byte slice borrows `values` for its whole life.
                let bytes = unsafe {
                    ::core::slice::from_raw_parts(
                        values.as_ptr().cast::<u8>(),
                        ::core::mem::size_of_val(values),
                    )
                };
                out.extend_from_slice(bytes);
            }

            #[inline]
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }

            #[cfg(target_endian = "little")]
            #[inline]
            fn extend_from_le(out: &mut Vec<Self>, bytes: &[u8]) {
                let n = bytes.len() / Self::SIZE;
                out.reserve(n);
                // SAFETY: after `reserve`, `out` has room for `n` more
                // elements past its length, which `bytes` (a borrowed input,
                // not `out`) fills with `n * SIZE` bytes; every bit pattern
                // is a valid `$t`, and on a little-endian host its bytes are
                // its little-endian encoding.
                unsafe {
                    let end = out.as_mut_ptr().add(out.len());
                    ::core::ptr::copy_nonoverlapping(bytes.as_ptr(), end.cast::<u8>(), n * Self::SIZE);
                    out.set_len(out.len() + n);
                }
            }

            #[cfg(target_endian = "little")]
            fn cast_slice(bytes: &[u8]) -> Option<&[Self]> {
                // SAFETY: every bit pattern is a valid `$t`; `align_to`
                // returns a correctly aligned middle part that lies within
                // `bytes` and borrows it.
                let (head, body, tail) = unsafe { bytes.align_to::<$t>() };
                if head.is_empty() && tail.is_empty() {
                    Some(body)
                } else {
                    None
                }
            }
        }
    )*};
}

numeric_scalar!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

/// A validated array of scalars borrowed from the input: the view of `[]T`
/// and `[N]T` for the numeric types and `bool`. Elements are decoded as they
/// are read; [`LeSlice::as_slice`] gives a plain slice without copying where
/// the host is little-endian and the data happens to be aligned.
pub struct LeSlice<'a, T: Scalar> {
    bytes: &'a [u8],
    len: usize,
    _elem: ::core::marker::PhantomData<T>,
}

impl<'a, T: Scalar> LeSlice<'a, T> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element at `index`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<T> {
        let start = index.checked_mul(T::SIZE)?;
        let chunk = self.bytes.get(start..start.checked_add(T::SIZE)?)?;
        Some(T::from_chunk(chunk))
    }

    /// The elements, decoded one by one.
    pub fn iter(&self) -> LeIter<'a, T> {
        LeIter {
            chunks: self.bytes.chunks_exact(T::SIZE),
            _elem: ::core::marker::PhantomData,
        }
    }

    /// Copies the elements into a vector (in bulk on little-endian hosts).
    pub fn to_vec(&self) -> Vec<T> {
        T::vec_from_le(self.bytes, self.len)
    }

    /// Copies exactly `N` elements into an array (missing ones are zero).
    pub fn to_array<const N: usize>(&self) -> [T; N] {
        let mut out = [T::default(); N];
        for (d, s) in out.iter_mut().zip(self.iter()) {
            *d = s;
        }
        out
    }

    /// The encoded bytes: `len() * size_of::<T>()` little-endian elements.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The elements as a slice without copying, when the host is
    /// little-endian and the bytes are aligned for `T`; `None` otherwise
    /// (then use [`LeSlice::iter`] or [`LeSlice::to_vec`]). Always `None`
    /// for `bool`.
    pub fn as_slice(&self) -> Option<&'a [T]> {
        T::cast_slice(self.bytes)
    }
}

impl<T: Scalar> Clone for LeSlice<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Scalar> Copy for LeSlice<'_, T> {}

impl<T: Scalar> PartialEq for LeSlice<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T: Scalar> Default for LeSlice<'_, T> {
    fn default() -> Self {
        LeSlice {
            bytes: &[],
            len: 0,
            _elem: ::core::marker::PhantomData,
        }
    }
}

impl<T: Scalar> fmt::Debug for LeSlice<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: Scalar> IntoIterator for LeSlice<'a, T> {
    type Item = T;
    type IntoIter = LeIter<'a, T>;

    fn into_iter(self) -> LeIter<'a, T> {
        self.iter()
    }
}

/// The iterator of [`LeSlice::iter`].
#[derive(Debug, Clone)]
pub struct LeIter<'a, T> {
    chunks: ::core::slice::ChunksExact<'a, u8>,
    _elem: ::core::marker::PhantomData<T>,
}

impl<T: Scalar> Iterator for LeIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        self.chunks.next().map(T::from_chunk)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl<T: Scalar> ExactSizeIterator for LeIter<'_, T> {}

/// Reads and validates one value at a nesting depth: the shape of the
/// generated `read` functions.
pub type ReadFn<'a, E> = fn(&mut Reader<'a>, u32) -> Result<E, DecodeError>;

/// What the unchecked reader of a list element needs to know besides the
/// element's type: the element count of an array element, and for an
/// element that is itself an array of non-scalars, its elements' fixed size
/// and hint.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    /// A `[]T` element: the count is read from the input; otherwise `n`.
    pub counted: bool,
    /// The count of a `[N]T` element.
    pub n: usize,
    /// The fixed size of the elements of an array element, or 0.
    pub fixed: usize,
    /// The hint of the elements of an array element.
    pub inner: Option<&'static Hint>,
}

impl Hint {
    /// The hint of elements that need none (and of `[]T` of scalars).
    pub const LEAF: Hint = Hint {
        counted: true,
        n: 0,
        fixed: 0,
        inner: None,
    };
}

/// A list element type that can be read back, without checks, from bytes a
/// list view validated.
#[doc(hidden)]
pub trait Valid<'a>: Sized {
    /// Reads the element at `*p` and moves `*p` past it.
    ///
    /// # Safety
    ///
    /// `b[*p..]` starts with an element that the checker of the [`Elem`]
    /// giving `hint` accepted.
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, hint: &Hint) -> Self;
}

impl<'a> Valid<'a> for &'a str {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, _: &Hint) -> Self {
        // SAFETY: forwarded contract.
        unsafe { v_str(b, p) }
    }
}

impl<'a> Valid<'a> for &'a [u8] {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, _: &Hint) -> Self {
        // SAFETY: forwarded contract.
        unsafe { v_bytes(b, p) }
    }
}

impl<'a, const N: usize> Valid<'a> for &'a [u8; N] {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, _: &Hint) -> Self {
        // SAFETY: forwarded contract.
        unsafe { v_byte_array::<N>(b, p) }
    }
}

impl<'a, T: Scalar> Valid<'a> for LeSlice<'a, T> {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, hint: &Hint) -> Self {
        // SAFETY: forwarded contract: the count and the elements were
        // checked (so `n * SIZE` does not overflow).
        unsafe {
            let n = if hint.counted {
                v_u32(b, p) as usize
            } else {
                hint.n
            };
            LeSlice {
                bytes: v_take(b, p, n * T::SIZE),
                len: n,
                _elem: ::core::marker::PhantomData,
            }
        }
    }
}

impl<'a, E: Valid<'a>> Valid<'a> for ListView<'a, E> {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, hint: &Hint) -> Self {
        let inner = match hint.inner {
            Some(h) => *h,
            None => Hint::LEAF,
        };
        // SAFETY: forwarded contract: the count and the elements were
        // checked with the element hint `inner`.
        unsafe {
            let n = if hint.counted {
                v_u32(b, p) as usize
            } else {
                hint.n
            };
            v_list(b, p, n, hint.fixed, inner)
        }
    }
}

impl<'a, E: Valid<'a>> Valid<'a> for Option<E> {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, hint: &Hint) -> Self {
        // SAFETY: forwarded contract: the presence byte and the value were
        // checked.
        unsafe {
            if v_bool(b, p) {
                Some(E::read_valid(b, p, hint))
            } else {
                None
            }
        }
    }
}

impl<'a, E: Valid<'a>> Valid<'a> for Box<E> {
    #[inline(always)]
    unsafe fn read_valid(b: &'a [u8], p: &mut usize, hint: &Hint) -> Self {
        // SAFETY: forwarded contract.
        Box::new(unsafe { E::read_valid(b, p, hint) })
    }
}

/// Validates one element of a list without building it, at the given
/// nesting depth (of the struct holding the list).
#[doc(hidden)]
pub type CheckFn<'a> = fn(&mut Reader<'a>, u32) -> Result<(), DecodeError>;

/// A validating element reader: a [`CheckFn`] or a closure like one.
#[doc(hidden)]
pub trait Check<'a>: Fn(&mut Reader<'a>, u32) -> Result<(), DecodeError> + Copy {}

impl<'a, F> Check<'a> for F where F: Fn(&mut Reader<'a>, u32) -> Result<(), DecodeError> + Copy {}

/// How a [`ListView`] reads its elements: once with checks when the view is
/// decoded, then (iterating) with [`Valid::read_valid`], without
/// re-checking what was validated.
#[doc(hidden)]
pub struct Elem<'a, E, C = CheckFn<'a>> {
    check: C,
    hint: Hint,
    fixed: usize,
    _elem: ::core::marker::PhantomData<fn(&'a [u8]) -> E>,
}

impl<E, C: Copy> Clone for Elem<'_, E, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, C: Copy> Copy for Elem<'_, E, C> {}

impl<'a, E: Valid<'a>, C: Check<'a>> Elem<'a, E, C> {
    /// Pairs a validating reader with the element type's unchecked reader.
    ///
    /// # Safety
    ///
    /// Whenever `check` succeeds on a reader at offset `s` and leaves it at
    /// `e`, then `E::read_valid` with `hint`, called on any slice holding
    /// those same bytes at an offset `s'`, must read the element (relying
    /// only on what `check` verified), read nothing outside
    /// `s'..s' + (e - s)` and leave the offset at `s' + (e - s)`. `fixed` is
    /// 0, or the size that every element `check` accepts has.
    #[inline(always)]
    pub unsafe fn new(check: C, hint: Hint, fixed: usize) -> Self {
        Elem {
            check,
            hint,
            fixed,
            _elem: ::core::marker::PhantomData,
        }
    }
}

/// The elements of `[]str` lists.
#[doc(hidden)]
#[inline]
pub fn elem_str<'a>() -> Elem<'a, &'a str, impl Check<'a>> {
    // SAFETY: `v_str` reads the length and bytes that `Reader::str` checked
    // (bounds and UTF-8).
    unsafe { Elem::new(|r, _| r.str().map(drop), Hint::LEAF, 0) }
}

/// The elements of `[][]u8` lists.
#[doc(hidden)]
#[inline]
pub fn elem_bytes<'a>() -> Elem<'a, &'a [u8], impl Check<'a>> {
    // SAFETY: `v_bytes` reads the length and bytes that `Reader::bytes` checked.
    unsafe { Elem::new(|r, _| r.bytes().map(drop), Hint::LEAF, 0) }
}

/// The elements of `[][N]u8` lists.
#[doc(hidden)]
#[inline]
pub fn elem_byte_array<'a, const N: usize>() -> Elem<'a, &'a [u8; N], impl Check<'a>> {
    // SAFETY: `v_byte_array` reads the `N` bytes `Reader::byte_array` checked.
    unsafe { Elem::new(|r, _| r.byte_array::<N>().map(drop), Hint::LEAF, N) }
}

/// The elements of `[][]T` lists of scalars.
#[doc(hidden)]
#[inline]
pub fn elem_scalar_slice<'a, T: Scalar>() -> Elem<'a, LeSlice<'a, T>, impl Check<'a>> {
    // SAFETY: a counted `LeSlice` reads the count and elements that
    // `Reader::scalar_slice` checked (bounds, and bools).
    unsafe { Elem::new(|r, _| r.scalar_slice::<T>().map(drop), Hint::LEAF, 0) }
}

/// The elements of `[][N]T` lists of scalars.
#[doc(hidden)]
#[inline]
pub fn elem_scalars<'a, T: Scalar, const N: usize>() -> Elem<'a, LeSlice<'a, T>, impl Check<'a>> {
    let hint = Hint {
        counted: false,
        n: N,
        fixed: 0,
        inner: None,
    };
    // Saturates on a 32-bit target: no input then holds the elements.
    let fixed = N.saturating_mul(T::SIZE);
    // SAFETY: an `LeSlice` of `N` reads the elements `Reader::scalars` checked.
    unsafe { Elem::new(|r, _| r.scalars::<T>(N).map(drop), hint, fixed) }
}

/// A validated array of non-scalar elements (structs, unions, strings,
/// nested arrays) borrowed from the input. Every element was checked when
/// the enclosing view was decoded; iterating reads them again lazily,
/// without allocating and without checking again.
pub struct ListView<'a, E> {
    // Invariant: `bytes` holds exactly `len` consecutive elements that the
    // `check` of an [`Elem`] accepted; `hint` and `fixed` are that `Elem`'s.
    // Only `Reader::list` (after validating) and `v_list` (on validated
    // bytes) build one.
    bytes: &'a [u8],
    len: usize,
    fixed: usize,
    hint: Hint,
    _elem: ::core::marker::PhantomData<fn() -> E>,
}

impl<'a, E> ListView<'a, E> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The encoded bytes of the elements.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<'a, E: Valid<'a>> ListView<'a, E> {
    /// The elements, decoded one by one.
    #[inline]
    pub fn iter(&self) -> ListIter<'a, E> {
        ListIter {
            bytes: self.bytes,
            pos: 0,
            left: self.len,
            hint: self.hint,
            _elem: ::core::marker::PhantomData,
        }
    }

    /// The element at `index`, or `None` past the end. Constant time when the
    /// elements have a fixed size, otherwise it walks the elements before it.
    pub fn get(&self, index: usize) -> Option<E> {
        if index >= self.len {
            return None;
        }
        if self.fixed == 0 {
            return self.iter().nth(index);
        }
        // No overflow: index < len and len * fixed is the length of `bytes`.
        let mut pos = index * self.fixed;
        // SAFETY: the elements all have `fixed` bytes (the ListView
        // invariant), so element `index` starts at `index * fixed`.
        Some(unsafe { E::read_valid(self.bytes, &mut pos, &self.hint) })
    }

    /// Converts every element and collects them into exactly `N` values
    /// (the view of a fixed array always holds `N`).
    pub fn to_array<T: Default, const N: usize>(&self, mut f: impl FnMut(E) -> T) -> [T; N] {
        let mut it = self.iter();
        ::core::array::from_fn(|_| it.next().map(&mut f).unwrap_or_default())
    }
}

impl<E> Clone for ListView<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for ListView<'_, E> {}

impl<E> PartialEq for ListView<'_, E> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.bytes == other.bytes
    }
}

impl<'a, E: Valid<'a> + fmt::Debug> fmt::Debug for ListView<'a, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, E: Valid<'a>> IntoIterator for ListView<'a, E> {
    type Item = E;
    type IntoIter = ListIter<'a, E>;

    fn into_iter(self) -> ListIter<'a, E> {
        self.iter()
    }
}

/// The iterator of [`ListView::iter`].
pub struct ListIter<'a, E> {
    // Invariant: `bytes[pos..]` holds `left` validated elements (see
    // `ListView`).
    bytes: &'a [u8],
    pos: usize,
    left: usize,
    hint: Hint,
    _elem: ::core::marker::PhantomData<fn() -> E>,
}

impl<'a, E: Valid<'a>> Iterator for ListIter<'a, E> {
    type Item = E;

    #[inline]
    fn next(&mut self) -> Option<E> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // SAFETY: a validated element starts at `pos` (the invariant), and
        // `read_valid` moves `pos` past it, to the next one.
        Some(unsafe { E::read_valid(self.bytes, &mut self.pos, &self.hint) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a, E: Valid<'a>> ExactSizeIterator for ListIter<'a, E> {}

// The unchecked readers of validated bytes. Each one's safety contract: `*p`
// is the offset in `b` of a value of that type that a `Reader` accepted
// (with the same bytes), so every read below stays within `b`; the debug
// assertions re-check that in test builds.

macro_rules! valid_le {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("Reads a validated `", stringify!($t), "`.")]
        ///
        /// # Safety
        ///
        /// `b[*p..]` starts with a value that a [`Reader`] accepted.
        #[doc(hidden)]
        #[inline(always)]
        pub unsafe fn $name(b: &[u8], p: &mut usize) -> $t {
            const N: usize = ::core::mem::size_of::<$t>();
            debug_assert!(b.len() >= N && *p <= b.len() - N);
            // SAFETY: the caller guarantees `N` bytes at `*p` (validated);
            // `[u8; N]` has alignment 1.
            let a = unsafe { b.as_ptr().add(*p).cast::<[u8; N]>().read() };
            *p += N;
            <$t>::from_le_bytes(a)
        }
    )*};
}

valid_le!(
    v_u8: u8, v_u16: u16, v_u32: u32, v_u64: u64, v_i8: i8, v_i16: i16, v_i32: i32,
    v_i64: i64, v_f32: f32, v_f64: f64
);

/// Reads a validated bool (or presence byte): 0 or 1.
///
/// # Safety
///
/// `b[*p..]` starts with a value that a [`Reader`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_bool(b: &[u8], p: &mut usize) -> bool {
    // SAFETY: forwarded contract.
    unsafe { v_u8(b, p) != 0 }
}

// Numbers and bools are list elements too when they are optional (`[]?u32`):
// the list view then yields `Option<u32>`.
macro_rules! valid_scalar {
    ($($t:ty => $read:ident),*) => {$(
        impl<'a> Valid<'a> for $t {
            #[inline(always)]
            unsafe fn read_valid(b: &'a [u8], p: &mut usize, _: &Hint) -> Self {
                // SAFETY: forwarded contract.
                unsafe { $read(b, p) }
            }
        }
    )*};
}

valid_scalar!(
    u8 => v_u8, u16 => v_u16, u32 => v_u32, u64 => v_u64, i8 => v_i8, i16 => v_i16,
    i32 => v_i32, i64 => v_i64, f32 => v_f32, f64 => v_f64, bool => v_bool
);

/// Takes `n` validated bytes.
///
/// # Safety
///
/// `b[*p..]` holds at least `n` bytes that a [`Reader`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_take<'a>(b: &'a [u8], p: &mut usize, n: usize) -> &'a [u8] {
    debug_assert!(*p <= b.len() && n <= b.len() - *p);
    let at = *p;
    *p += n;
    // SAFETY: the caller guarantees `at + n <= b.len()`.
    unsafe { b.get_unchecked(at..at + n) }
}

/// Reads a validated string.
///
/// # Safety
///
/// `b[*p..]` starts with a string that [`Reader::str`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_str<'a>(b: &'a [u8], p: &mut usize) -> &'a str {
    // SAFETY: the length and bytes were bounds-checked and the bytes
    // checked to be UTF-8 by `Reader::str`.
    unsafe {
        let n = v_u32(b, p) as usize;
        let s = v_take(b, p, n);
        debug_assert!(std::str::from_utf8(s).is_ok());
        std::str::from_utf8_unchecked(s)
    }
}

/// Reads a validated `[]u8`.
///
/// # Safety
///
/// `b[*p..]` starts with a `[]u8` that [`Reader::bytes`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_bytes<'a>(b: &'a [u8], p: &mut usize) -> &'a [u8] {
    // SAFETY: forwarded contract: the length and bytes were checked.
    unsafe {
        let n = v_u32(b, p) as usize;
        v_take(b, p, n)
    }
}

/// Reads a validated `[N]u8`.
///
/// # Safety
///
/// `b[*p..]` holds `N` bytes that a [`Reader`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_byte_array<'a, const N: usize>(b: &'a [u8], p: &mut usize) -> &'a [u8; N] {
    // SAFETY: forwarded contract; `[u8; N]` has alignment 1 and the slice
    // has exactly `N` bytes.
    unsafe { &*v_take(b, p, N).as_ptr().cast::<[u8; N]>() }
}

/// Reads a validated `[]T` of scalars.
///
/// # Safety
///
/// `b[*p..]` starts with a `[]T` that [`Reader::scalar_slice`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_scalar_slice<'a, T: Scalar>(b: &'a [u8], p: &mut usize) -> LeSlice<'a, T> {
    // SAFETY: forwarded contract: `scalar_slice` checked that the count's
    // elements fit (so the product does not overflow) and validated them.
    unsafe {
        let n = v_u32(b, p) as usize;
        LeSlice {
            bytes: v_take(b, p, n * T::SIZE),
            len: n,
            _elem: ::core::marker::PhantomData,
        }
    }
}

/// Reads a validated `[N]T` of scalars.
///
/// # Safety
///
/// `b[*p..]` starts with `N` scalars that [`Reader::scalars`] accepted.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_scalars<'a, T: Scalar, const N: usize>(
    b: &'a [u8],
    p: &mut usize,
) -> LeSlice<'a, T> {
    // SAFETY: forwarded contract.
    LeSlice {
        bytes: unsafe { v_take(b, p, N * T::SIZE) },
        len: N,
        _elem: ::core::marker::PhantomData,
    }
}

/// Reads a validated `?T`.
///
/// # Safety
///
/// `b[*p..]` starts with an optional that a [`Reader`] accepted, and `read`
/// is the unchecked reader of its value.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_option<'a, T>(
    b: &'a [u8],
    p: &mut usize,
    read: impl FnOnce(&'a [u8], &mut usize) -> T,
) -> Option<T> {
    // SAFETY: forwarded contract: the presence byte was checked.
    if unsafe { v_bool(b, p) } {
        Some(read(b, p))
    } else {
        None
    }
}

/// Reads a validated `[]T` of non-scalars.
///
/// # Safety
///
/// `b[*p..]` starts with a `[]T` that [`Reader::list_of`] accepted with an
/// [`Elem`] whose fixed size and hint are `fixed` and `hint`.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_list_of<'a, E: Valid<'a>>(
    b: &'a [u8],
    p: &mut usize,
    fixed: usize,
    hint: Hint,
) -> ListView<'a, E> {
    // SAFETY: forwarded contract.
    unsafe {
        let n = v_u32(b, p) as usize;
        v_list(b, p, n, fixed, hint)
    }
}

/// Reads `n` validated elements (a `[N]T` of non-scalars, or the elements of
/// a `[]T`).
///
/// # Safety
///
/// `b[*p..]` starts with `n` elements that [`Reader::list`] accepted with an
/// [`Elem`] whose fixed size and hint are `fixed` and `hint`.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn v_list<'a, E: Valid<'a>>(
    b: &'a [u8],
    p: &mut usize,
    n: usize,
    fixed: usize,
    hint: Hint,
) -> ListView<'a, E> {
    let start = *p;
    if fixed != 0 {
        // No overflow: the validated elements are in `b`.
        *p += n * fixed;
    } else {
        for _ in 0..n {
            // SAFETY: forwarded contract: the elements follow each other.
            unsafe { E::read_valid(b, p, &hint) };
        }
    }
    debug_assert!(start <= *p && *p <= b.len());
    ListView {
        // SAFETY: the elements lie within `b` (forwarded contract).
        bytes: unsafe { b.get_unchecked(start..*p) },
        len: n,
        fixed,
        hint,
        _elem: ::core::marker::PhantomData,
    }
}

/// The bounds-checked cursor every decoder reads with.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    max_depth: u32,
    // Rule 11: the memory limit (0: the default for `buf`, computed at the
    // first charge, so that decoders that never charge do no work for it)
    // and the nominal memory charged so far (`mem_used` <= the limit).
    mem_limit: u64,
    mem_used: u64,
    // Set on the copies that re-read a value on an error path
    // (`read_struct`): their own errors are only tested, so they build no
    // field path (which would re-read again at every level).
    quiet: bool,
}

macro_rules! read_le {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("Reads a little-endian `", stringify!($t), "`.")]
        #[inline(always)]
        pub fn $name(&mut self) -> Result<$t, DecodeError> {
            Ok(<$t>::from_le_bytes(self.fixed()?))
        }
    )*};
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8], options: DecodeOptions) -> Self {
        Reader {
            buf,
            pos: 0,
            // Keeps `depth + 1` from overflowing.
            max_depth: if options.max_depth == 0 {
                DEFAULT_MAX_DEPTH
            } else {
                options.max_depth.min(u32::MAX - 1)
            },
            mem_limit: options.memory_limit,
            mem_used: 0,
            quiet: false,
        }
    }

    /// The bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not consumed yet.
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    /// An error at the current offset.
    #[doc(hidden)]
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.pos)
    }

    /// A copy of the reader at `pos` that re-reads a value on an error path
    /// (see `quiet`).
    #[doc(hidden)]
    #[cold]
    pub fn quiet_at(&self, pos: usize) -> Reader<'a> {
        Reader {
            pos,
            quiet: true,
            ..self.clone()
        }
    }

    /// A copy of the reader positioned at `pos` (to re-read a value on an
    /// error path).
    #[doc(hidden)]
    pub fn at(&self, pos: usize) -> Reader<'a> {
        Reader {
            pos,
            ..self.clone()
        }
    }

    /// Adds `n` values of `each` bytes of nominal memory to the total
    /// (rule 11); fails, about the count or presence byte that ended `back`
    /// bytes ago, when the total would exceed the memory limit.
    #[doc(hidden)]
    #[inline]
    pub fn charge(&mut self, n: usize, each: u64, back: usize) -> Result<(), DecodeError> {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        if self.mem_limit == 0 {
            self.mem_limit = default_memory_limit(self.buf.len());
        }
        let left = self.mem_limit - self.mem_used;
        match left.checked_div(each) {
            Some(most) if n > most => Err(self.memory_exceeded(back)),
            _ => {
                // No overflow: n * each <= left.
                self.mem_used += n.wrapping_mul(each);
                Ok(())
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn memory_exceeded(&self, back: usize) -> DecodeError {
        self.back(back, DecodeErrorKind::MemoryLimitExceeded(self.mem_limit))
    }

    /// Reads a u32 count, checks that `count * min_size` bytes remain, then
    /// charges `count * each` bytes of nominal memory (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_count(&mut self, min_size: usize, each: u64) -> Result<usize, DecodeError> {
        let n = self.count(min_size)?;
        self.charge(n, each, 4)?;
        Ok(n)
    }

    /// Fails when `depth` exceeds the limit.
    #[inline]
    pub fn enter(&self, depth: u32) -> Result<(), DecodeError> {
        if depth > self.max_depth {
            return Err(self.error(DecodeErrorKind::DepthLimitExceeded(self.max_depth)));
        }
        Ok(())
    }

    /// Fails unless every byte was consumed.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.remaining() != 0 {
            return Err(self.error(DecodeErrorKind::TrailingBytes));
        }
        Ok(())
    }

    /// Takes the next `n` bytes.
    #[inline(always)]
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        if n <= rest.len() {
            self.pos += n;
            Ok(rest.split_at(n).0)
        } else {
            Err(self.truncated())
        }
    }

    /// A truncation error at the current offset (out of line: error paths
    /// stay out of the decoders' hot code).
    #[cold]
    #[inline(never)]
    fn truncated(&self) -> DecodeError {
        self.error(DecodeErrorKind::Truncated)
    }

    #[inline(always)]
    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        match rest.first_chunk::<N>() {
            Some(a) => {
                self.pos += N;
                Ok(*a)
            }
            None => Err(self.truncated()),
        }
    }

    /// Takes the next `N` bytes (at most 64) as an array: a run of
    /// fixed-size fields, bounds-checked once. Bit `i` of `starts` is set
    /// where a field starts, bit `i` of `bools` where a bool is. When the
    /// input ends inside the run, the error is the first one a reader going
    /// front to back meets: a bad bool before the end, or truncation at the
    /// field that was cut (docs/wire-format.md).
    #[inline(always)]
    pub fn run<const N: usize>(
        &mut self,
        starts: u64,
        bools: u64,
    ) -> Result<&'a [u8; N], DecodeError> {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        match rest.first_chunk::<N>() {
            Some(a) => {
                self.pos += N;
                Ok(a)
            }
            None => Err(self.short_run(rest, starts, bools)),
        }
    }

    #[cold]
    #[inline(never)]
    fn short_run(&self, rest: &[u8], starts: u64, bools: u64) -> DecodeError {
        let mut field = 0;
        for (i, &b) in rest.iter().enumerate().take(64) {
            if starts >> i & 1 != 0 {
                field = i;
            }
            if bools >> i & 1 != 0 && b > 1 {
                return DecodeError::new(DecodeErrorKind::InvalidBool(b), self.pos + i);
            }
        }
        // The first field that does not fit: the one holding byte rest.len().
        let end = rest.len().min(63);
        if starts >> end & 1 != 0 {
            field = end;
        }
        DecodeError::new(DecodeErrorKind::Truncated, self.pos + field)
    }

    /// The bool at offset `i` of a run just taken with [`Reader::run`].
    #[inline(always)]
    pub fn bool_in<const N: usize>(&self, run: &[u8; N], i: usize) -> Result<bool, DecodeError> {
        match run.get(i) {
            Some(0) => Ok(false),
            Some(1) => Ok(true),
            b => Err(self.bad_bool(b.copied().unwrap_or(0), N.saturating_sub(i))),
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_bool(&self, b: u8, back: usize) -> DecodeError {
        self.back(back, DecodeErrorKind::InvalidBool(b))
    }

    read_le!(
        u8: u8, u16: u16, u32: u32, u64: u64, i8: i8, i16: i16, i32: i32, i64: i64,
        f32: f32, f64: f64
    );

    /// Reads a bool: 0 or 1.
    #[inline]
    pub fn bool(&mut self) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(self.back(1, DecodeErrorKind::InvalidBool(b))),
        }
    }

    /// Reads an optional's presence byte: 0 or 1.
    #[inline]
    pub fn presence(&mut self) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(self.back(1, DecodeErrorKind::InvalidPresence(b))),
        }
    }

    /// An error about the value that ended `size` bytes ago.
    #[doc(hidden)]
    pub fn back(&self, size: usize, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.pos.saturating_sub(size))
    }

    /// An error about the enum number `v` of `size` bytes just read.
    #[doc(hidden)]
    pub fn unknown_enum(&self, v: u32, size: usize) -> DecodeError {
        self.back(size, DecodeErrorKind::UnknownEnumValue(v))
    }

    /// Reads a u32 count and checks that `count * min_size` bytes remain.
    #[inline(always)]
    pub fn count(&mut self, min_size: usize) -> Result<usize, DecodeError> {
        let n = self.u32()?;
        let total = usize::try_from(n)
            .ok()
            .and_then(|c| c.checked_mul(min_size).map(|t| (c, t)));
        match total {
            Some((c, t)) if t <= self.remaining() => Ok(c),
            _ => Err(self.count_too_large(n)),
        }
    }

    #[cold]
    #[inline(never)]
    fn count_too_large(&self, n: u32) -> DecodeError {
        self.back(4, DecodeErrorKind::CountTooLarge(n))
    }

    /// A count error about the count at offset `at`.
    #[cold]
    #[inline(never)]
    fn count_too_large_at(&self, n: u32, at: usize) -> DecodeError {
        DecodeError::new(DecodeErrorKind::CountTooLarge(n), at)
    }

    /// Reads a string.
    #[inline(always)]
    pub fn str(&mut self) -> Result<&'a str, DecodeError> {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        let Some((len, tail)) = rest.split_first_chunk::<4>() else {
            return Err(self.truncated());
        };
        let n = u32::from_le_bytes(*len);
        match usize::try_from(n) {
            Ok(n) if n <= tail.len() => {
                let bytes = tail.split_at(n).0;
                // A bad string is reported at its length, as the reference
                // decoder does.
                let start = self.pos;
                self.pos = start + 4 + n;
                if ascii_prefix(tail, n) {
                    // SAFETY: `bytes` is `tail[..n]`, which is ASCII, and
                    // ASCII is valid UTF-8. (Measured: most strings are
                    // short and ASCII; checking them a word at a time first
                    // is far cheaper than the general UTF-8 check.)
                    return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
                }
                utf8(bytes, start)
            }
            _ => Err(self.count_too_large_at(n, self.pos)),
        }
    }

    /// Reads a string into a new `String` (short strings are copied without
    /// a `memcpy` call).
    #[inline(always)]
    pub fn string(&mut self) -> Result<String, DecodeError> {
        let s = self.str()?;
        let mut v = Vec::with_capacity(s.len());
        // SAFETY: `v` has room for `s.len()` bytes and does not overlap `s`;
        // after the copy they are initialized, and they are UTF-8 (`s` is a
        // `str`).
        unsafe {
            copy_small(s.as_bytes(), v.as_mut_ptr());
            v.set_len(s.len());
            Ok(String::from_utf8_unchecked(v))
        }
    }

    /// Reads a `[]u8`.
    #[inline(always)]
    pub fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        let Some((len, tail)) = rest.split_first_chunk::<4>() else {
            return Err(self.truncated());
        };
        let n = u32::from_le_bytes(*len);
        match usize::try_from(n) {
            Ok(n) if n <= tail.len() => {
                self.pos += 4 + n;
                Ok(tail.split_at(n).0)
            }
            _ => Err(self.count_too_large_at(n, self.pos)),
        }
    }

    /// Reads a `[N]u8`.
    #[inline]
    pub fn byte_array<const N: usize>(&mut self) -> Result<&'a [u8; N], DecodeError> {
        let Ok(s) = self.take(N) else {
            // At the first missing element, as the owned decoder says.
            return Err(DecodeError::new(DecodeErrorKind::Truncated, self.buf.len()));
        };
        s.try_into()
            .map_err(|_| self.error(DecodeErrorKind::Truncated))
    }

    /// Reads `n` scalars (validating bools) without copying.
    #[inline]
    pub fn scalars<T: Scalar>(&mut self, n: usize) -> Result<LeSlice<'a, T>, DecodeError> {
        let at = self.pos;
        let size = n
            .checked_mul(T::SIZE)
            .ok_or_else(|| self.error(DecodeErrorKind::Truncated))?;
        let bytes = match self.take(size) {
            Ok(bytes) => bytes,
            Err(_) => return Err(self.short_scalars::<T>()),
        };
        if let Err(i) = T::validate(bytes) {
            let b = bytes.get(i).copied().unwrap_or(0);
            let at = at.saturating_add(i);
            return Err(DecodeError::new(DecodeErrorKind::InvalidBool(b), at));
        }
        Ok(LeSlice {
            bytes,
            len: n,
            _elem: ::core::marker::PhantomData,
        })
    }

    /// The error for scalars that run past the end of the input: the first
    /// one a reader going front to back meets, a bad bool among the elements
    /// that are there, or truncation at the first element that is not.
    #[cold]
    #[inline(never)]
    fn short_scalars<T: Scalar>(&self) -> DecodeError {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        let whole = rest.len() / T::SIZE * T::SIZE;
        if let Err(i) = T::validate(rest.get(..whole).unwrap_or(&[])) {
            let b = rest.get(i).copied().unwrap_or(0);
            return DecodeError::new(DecodeErrorKind::InvalidBool(b), self.pos + i);
        }
        DecodeError::new(DecodeErrorKind::Truncated, self.pos + whole)
    }

    /// Reads a `[]T` of scalars without copying.
    #[inline]
    pub fn scalar_slice<T: Scalar>(&mut self) -> Result<LeSlice<'a, T>, DecodeError> {
        let n = self.count(T::SIZE)?;
        self.scalars(n)
    }

    /// Reads a `[]T` of scalars into a vector.
    #[inline]
    pub fn scalar_vec<T: Scalar>(&mut self) -> Result<Vec<T>, DecodeError> {
        Ok(self.scalar_slice::<T>()?.to_vec())
    }

    /// Reads a `[N]T` of scalars into an array.
    #[inline]
    pub fn scalar_array<T: Scalar, const N: usize>(&mut self) -> Result<[T; N], DecodeError> {
        Ok(self.scalars::<T>(N)?.to_array())
    }

    /// Reads `n` elements, validating each, into a lazily decoding view.
    /// `depth` is the nesting depth of the struct holding the list.
    #[inline]
    pub fn list<E: Valid<'a>, C: Check<'a>>(
        &mut self,
        n: usize,
        depth: u32,
        elem: Elem<'a, E, C>,
    ) -> Result<ListView<'a, E>, DecodeError> {
        let start = self.pos;
        for _ in 0..n {
            (elem.check)(self, depth)?;
        }
        let bytes = self
            .buf
            .get(start..self.pos)
            .ok_or_else(|| self.error(DecodeErrorKind::Truncated))?;
        Ok(ListView {
            bytes,
            len: n,
            fixed: elem.fixed,
            hint: elem.hint,
            _elem: ::core::marker::PhantomData,
        })
    }

    /// Reads a `[]T` of non-scalar elements (u32 count, then the elements),
    /// validating each, into a lazily decoding view.
    #[inline]
    pub fn list_of<E: Valid<'a>, C: Check<'a>>(
        &mut self,
        min_size: usize,
        depth: u32,
        elem: Elem<'a, E, C>,
    ) -> Result<ListView<'a, E>, DecodeError> {
        let n = self.count(min_size)?;
        self.list(n, depth, elem)
    }

    /// Like [`Reader::list_of`], for elements charged `each` bytes of
    /// nominal memory (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_list_of<E: Valid<'a>, C: Check<'a>>(
        &mut self,
        min_size: usize,
        each: u64,
        depth: u32,
        elem: Elem<'a, E, C>,
    ) -> Result<ListView<'a, E>, DecodeError> {
        let n = self.charged_count(min_size, each)?;
        self.list(n, depth, elem)
    }

    /// Reads `n` elements into a vector.
    #[inline]
    pub fn vec_n<T>(
        &mut self,
        n: usize,
        mut read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(read(self)?);
        }
        Ok(out)
    }

    /// The bytes of `n` plain values at depth `depth`, consumed, when the
    /// input holds them all and the depth limit allows their nesting: then
    /// they can be copied in one piece, as no error can occur among them.
    #[cfg(target_endian = "little")]
    #[inline]
    fn plain_bytes<T: Plain>(&mut self, n: usize, depth: u32) -> Option<&'a [u8]> {
        if depth.saturating_add(T::DEPTH - 1) > self.max_depth {
            return None;
        }
        let end = self.pos.checked_add(n.checked_mul(T::SIZE)?)?;
        let bytes = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(bytes)
    }

    /// Reads `n` plain values (elements at depth `depth`) into `out`,
    /// replacing its contents: one copy on little-endian hosts when
    /// possible, else one by one with `read` (which reports the exact error).
    #[doc(hidden)]
    #[inline]
    pub fn plain_vec_n_assign<T: Plain>(
        &mut self,
        out: &mut Vec<T>,
        n: usize,
        depth: u32,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        #[cfg(target_endian = "little")]
        if let Some(bytes) = self.plain_bytes::<T>(n, depth) {
            out.clear();
            out.reserve(n);
            // SAFETY: `out` has room for `n` values, `bytes` holds n * SIZE
            // bytes, and T: Plain makes those bytes n valid values.
            unsafe {
                ::core::ptr::copy_nonoverlapping(
                    bytes.as_ptr(),
                    out.as_mut_ptr().cast::<u8>(),
                    bytes.len(),
                );
                out.set_len(n);
            }
            return Ok(());
        }
        self.vec_n_assign(out, n, read)
    }

    /// Reads a `[]T` of plain values (elements at depth `depth`).
    #[doc(hidden)]
    #[inline]
    pub fn plain_vec<T: Plain>(
        &mut self,
        depth: u32,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let n = self.count(T::SIZE)?;
        let mut out = Vec::new();
        self.plain_vec_n_assign(&mut out, n, depth, read)?;
        Ok(out)
    }

    /// Reads a `[]T` of plain values into `out`, reusing its capacity.
    #[doc(hidden)]
    #[inline]
    pub fn plain_vec_assign<T: Plain>(
        &mut self,
        out: &mut Vec<T>,
        depth: u32,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        let n = self.count(T::SIZE)?;
        self.plain_vec_n_assign(out, n, depth, read)
    }

    /// Reads a `[N]T` of plain values.
    #[doc(hidden)]
    #[inline]
    pub fn plain_array<T: Plain, const N: usize>(
        &mut self,
        depth: u32,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<[T; N], DecodeError> {
        let mut v = Vec::new();
        self.plain_vec_n_assign(&mut v, N, depth, read)?;
        v.try_into()
            .map_err(|_| self.error(DecodeErrorKind::Truncated))
    }

    /// Reads a `[N]T` of plain values into a heap array, never building it on
    /// the stack.
    #[doc(hidden)]
    #[inline]
    pub fn boxed_plain_array<T: Plain, const N: usize>(
        &mut self,
        depth: u32,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Box<[T; N]>, DecodeError> {
        let mut v = Vec::new();
        self.plain_vec_n_assign(&mut v, N, depth, read)?;
        Box::try_from(v.into_boxed_slice()).map_err(|_| self.error(DecodeErrorKind::Truncated))
    }

    /// Reads a `[N]T` of plain values into an existing array (a boxed one is
    /// written in place).
    #[doc(hidden)]
    #[inline]
    pub fn plain_array_assign<T: Plain, const N: usize>(
        &mut self,
        out: &mut [T; N],
        depth: u32,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        #[cfg(target_endian = "little")]
        if let Some(bytes) = self.plain_bytes::<T>(N, depth) {
            // SAFETY: `out` holds N values, `bytes` N * SIZE bytes, and
            // T: Plain makes those bytes N valid values (T has no drop glue
            // to skip: it holds numbers only).
            unsafe {
                ::core::ptr::copy_nonoverlapping(
                    bytes.as_ptr(),
                    out.as_mut_ptr().cast::<u8>(),
                    bytes.len(),
                );
            }
            return Ok(());
        }
        self.array_assign(out, read)
    }

    /// Reads a `[]T` (u32 count, then the elements) into a vector.
    #[inline]
    pub fn vec<T>(
        &mut self,
        min_size: usize,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let n = self.count(min_size)?;
        self.vec_n(n, read)
    }

    /// Reads a `[]T` whose elements are charged `each` bytes of nominal
    /// memory (rule 11) into a vector.
    #[doc(hidden)]
    #[inline]
    pub fn charged_vec<T>(
        &mut self,
        min_size: usize,
        each: u64,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let n = self.charged_count(min_size, each)?;
        self.vec_n(n, read)
    }

    /// Reads a `[N]T` into a heap array, never building it on the stack.
    #[doc(hidden)]
    #[inline]
    pub fn boxed_array<T, const N: usize>(
        &mut self,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Box<[T; N]>, DecodeError> {
        let v = self.vec_n(N, read)?;
        Box::try_from(v.into_boxed_slice()).map_err(|_| self.error(DecodeErrorKind::Truncated))
    }

    /// Reads a `[N]T` of scalars into a heap array, never building it on the
    /// stack.
    #[doc(hidden)]
    #[inline]
    pub fn boxed_scalars<T: Scalar, const N: usize>(&mut self) -> Result<Box<[T; N]>, DecodeError> {
        let v = self.scalars::<T>(N)?.to_vec();
        Box::try_from(v.into_boxed_slice()).map_err(|_| self.error(DecodeErrorKind::Truncated))
    }

    /// Reads a `[N]T` of non-scalar elements.
    pub fn array<T, const N: usize>(
        &mut self,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<[T; N], DecodeError> {
        let v = self.vec_n(N, read)?;
        v.try_into()
            .map_err(|_| self.error(DecodeErrorKind::Truncated))
    }

    /// Reads a `?T` whose value is boxed (recursive types).
    #[inline]
    pub fn option_box<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Option<Box<T>>, DecodeError> {
        if self.presence()? {
            Ok(Some(Box::new(read(self)?)))
        } else {
            Ok(None)
        }
    }

    /// Reads a `?T` whose value is boxed and charged `each` bytes of nominal
    /// memory when present (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_option_box<T>(
        &mut self,
        each: u64,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Option<Box<T>>, DecodeError> {
        if self.presence()? {
            self.charge(1, each, 1)?;
            Ok(Some(Box::new(read(self)?)))
        } else {
            Ok(None)
        }
    }

    /// Reads a `?T`.
    #[inline]
    pub fn option<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Option<T>, DecodeError> {
        if self.presence()? {
            Ok(Some(read(self)?))
        } else {
            Ok(None)
        }
    }

    /// Reads a string into `out`, reusing its capacity (the bytes are
    /// checked before `out` is touched).
    #[doc(hidden)]
    #[inline]
    pub fn string_into(&mut self, out: &mut String) -> Result<(), DecodeError> {
        let s = self.str()?;
        out.clear();
        out.push_str(s);
        Ok(())
    }

    /// Reads a `[]u8` into `out`, reusing its capacity.
    #[doc(hidden)]
    #[inline]
    pub fn bytes_into(&mut self, out: &mut Vec<u8>) -> Result<(), DecodeError> {
        let b = self.bytes()?;
        out.clear();
        out.extend_from_slice(b);
        Ok(())
    }

    /// Reads a `[]T` of scalars into `out`, reusing its capacity.
    #[doc(hidden)]
    #[inline]
    pub fn scalar_vec_into<T: Scalar>(&mut self, out: &mut Vec<T>) -> Result<(), DecodeError> {
        let s = self.scalar_slice::<T>()?;
        out.clear();
        T::extend_from_le(out, s.bytes);
        Ok(())
    }

    /// Reads a `[N]T` of scalars into an existing array (a boxed one is
    /// written in place).
    #[doc(hidden)]
    #[inline]
    pub fn scalar_array_into<T: Scalar, const N: usize>(
        &mut self,
        out: &mut [T; N],
    ) -> Result<(), DecodeError> {
        let s = self.scalars::<T>(N)?;
        for (d, v) in out.iter_mut().zip(s.bytes.chunks_exact(T::SIZE)) {
            *d = T::from_chunk(v);
        }
        Ok(())
    }

    /// Reads `n` elements into `out`, reusing its capacity: it is truncated
    /// to `n`, the elements it keeps are decoded into with `read_into` and
    /// the missing ones are read with `read` and pushed.
    #[doc(hidden)]
    #[inline]
    pub fn vec_n_into<T>(
        &mut self,
        out: &mut Vec<T>,
        n: usize,
        mut read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
        mut read_into: impl FnMut(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        out.truncate(n);
        for x in out.iter_mut() {
            read_into(self, x)?;
        }
        out.reserve(n - out.len());
        for _ in out.len()..n {
            out.push(read(self)?);
        }
        Ok(())
    }

    /// Reads a `[]T` (u32 count, then the elements) into `out`, reusing its
    /// capacity and its elements (see [`Reader::vec_n_into`]).
    #[doc(hidden)]
    #[inline]
    pub fn vec_into<T>(
        &mut self,
        out: &mut Vec<T>,
        min_size: usize,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
        read_into: impl FnMut(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        let n = self.count(min_size)?;
        self.vec_n_into(out, n, read, read_into)
    }

    /// Like [`Reader::vec_into`], for elements charged `each` bytes of
    /// nominal memory (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_vec_into<T>(
        &mut self,
        out: &mut Vec<T>,
        min_size: usize,
        each: u64,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
        read_into: impl FnMut(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        let n = self.charged_count(min_size, each)?;
        self.vec_n_into(out, n, read, read_into)
    }

    /// Reads a `[N]T` of non-scalar elements into an existing array (a
    /// boxed one is written in place).
    #[doc(hidden)]
    #[inline]
    pub fn array_into<T, const N: usize>(
        &mut self,
        out: &mut [T; N],
        mut read_into: impl FnMut(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        for x in out.iter_mut() {
            read_into(self, x)?;
        }
        Ok(())
    }

    /// Reads a `?T` into `out`: a value present before and now is decoded
    /// into with `read_into`, a new one read with `read`; an absent one
    /// clears `out`.
    #[doc(hidden)]
    #[inline]
    pub fn option_into<T>(
        &mut self,
        out: &mut Option<T>,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
        read_into: impl FnOnce(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        if !self.presence()? {
            *out = None;
            return Ok(());
        }
        match out {
            Some(x) => read_into(self, x),
            None => {
                *out = Some(read(self)?);
                Ok(())
            }
        }
    }

    /// Reads a boxed `?T` into `out`, reusing the box when a value was
    /// present before and is now.
    #[doc(hidden)]
    #[inline]
    pub fn option_box_into<T>(
        &mut self,
        out: &mut Option<Box<T>>,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
        read_into: impl FnOnce(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        if !self.presence()? {
            *out = None;
            return Ok(());
        }
        self.box_into(out, read, read_into)
    }

    /// Like [`Reader::option_box_into`], charged `each` bytes of nominal
    /// memory when present (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_option_box_into<T>(
        &mut self,
        out: &mut Option<Box<T>>,
        each: u64,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
        read_into: impl FnOnce(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        if !self.presence()? {
            *out = None;
            return Ok(());
        }
        self.charge(1, each, 1)?;
        self.box_into(out, read, read_into)
    }

    /// Reads a `[]T` of elements without heap storage into `out`, reusing
    /// its capacity.
    #[doc(hidden)]
    #[inline]
    pub fn vec_assign<T>(
        &mut self,
        out: &mut Vec<T>,
        min_size: usize,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        let n = self.count(min_size)?;
        self.vec_n_assign(out, n, read)
    }

    /// Like [`Reader::vec_assign`], for elements charged `each` bytes of
    /// nominal memory (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_vec_assign<T>(
        &mut self,
        out: &mut Vec<T>,
        min_size: usize,
        each: u64,
        read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        let n = self.charged_count(min_size, each)?;
        self.vec_n_assign(out, n, read)
    }

    #[inline]
    fn vec_n_assign<T>(
        &mut self,
        out: &mut Vec<T>,
        n: usize,
        mut read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        out.clear();
        out.reserve(n);
        for _ in 0..n {
            out.push(read(self)?);
        }
        Ok(())
    }

    /// Reads a `[N]T` of elements without heap storage into an existing
    /// array (a boxed one is written in place).
    #[doc(hidden)]
    #[inline]
    pub fn array_assign<T, const N: usize>(
        &mut self,
        out: &mut [T; N],
        mut read: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        for x in out.iter_mut() {
            *x = read(self)?;
        }
        Ok(())
    }

    /// Reads a boxed `?T` of a value without heap storage into `out`,
    /// reusing the box when a value was present before and is now.
    #[doc(hidden)]
    #[inline]
    pub fn option_box_assign<T>(
        &mut self,
        out: &mut Option<Box<T>>,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        if !self.presence()? {
            *out = None;
            return Ok(());
        }
        self.box_assign(out, read)
    }

    /// Like [`Reader::option_box_assign`], charged `each` bytes of nominal
    /// memory when present (rule 11).
    #[doc(hidden)]
    #[inline]
    pub fn charged_option_box_assign<T>(
        &mut self,
        out: &mut Option<Box<T>>,
        each: u64,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        if !self.presence()? {
            *out = None;
            return Ok(());
        }
        self.charge(1, each, 1)?;
        self.box_assign(out, read)
    }

    /// The present value of a boxed `?T` without heap storage.
    #[inline]
    fn box_assign<T>(
        &mut self,
        out: &mut Option<Box<T>>,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(), DecodeError> {
        let v = read(self)?;
        match out {
            Some(x) => **x = v,
            None => *out = Some(Box::new(v)),
        }
        Ok(())
    }

    /// The present value of a boxed `?T`.
    #[inline]
    fn box_into<T>(
        &mut self,
        out: &mut Option<Box<T>>,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
        read_into: impl FnOnce(&mut Self, &mut T) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        match out {
            Some(x) => read_into(self, x),
            None => {
                *out = Some(Box::new(read(self)?));
                Ok(())
            }
        }
    }
}

/// The scalar at offset `i` of a run of fields (constant offsets: the
/// bounds are checked at compile time).
#[doc(hidden)]
#[inline(always)]
pub fn at<T: Scalar, const N: usize>(run: &[u8; N], i: usize) -> T {
    match run.get(i..i.wrapping_add(T::SIZE)) {
        Some(chunk) => T::from_chunk(chunk),
        None => T::default(),
    }
}

/// Whether `rest[..n]` is ASCII (`n <= rest.len()`), checked 8 bytes at a
/// time: a string shorter than 8 bytes with one load masked to its bytes,
/// a longer one with word loads, the last one overlapping.
#[inline(always)]
fn ascii_prefix(rest: &[u8], n: usize) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |w: &[u8; 8]| u64::from_le_bytes(*w);
    let Some(s) = rest.get(..n) else {
        return false;
    };
    if n < 8 {
        return match rest.first_chunk::<8>() {
            // The low `n` bytes of the little-endian word are `s`.
            Some(w) => word(w) & ((1u64 << (8 * n)) - 1) & HIGH == 0,
            None => s.is_ascii(),
        };
    }
    if n > 64 {
        return s.is_ascii();
    }
    let mut acc = s.last_chunk::<8>().map_or(0, word);
    let mut chunks = s.chunks_exact(8);
    for c in &mut chunks {
        acc |= c.first_chunk::<8>().map_or(0, word);
    }
    acc & HIGH == 0
}

/// The general UTF-8 check of a string whose length is at offset `at` (out
/// of line).
#[inline(never)]
fn utf8(bytes: &[u8], at: usize) -> Result<&str, DecodeError> {
    std::str::from_utf8(bytes).map_err(|_| DecodeError::new(DecodeErrorKind::InvalidUtf8, at))
}

/// The summed encoded sizes of variable-size elements (saturating at
/// `usize::MAX`: an encoding larger than `usize` counts is refused by rule
/// `size`).
#[doc(hidden)]
#[inline]
pub fn sum_sizes<T>(items: &[T], size: impl Fn(&T) -> usize) -> usize {
    // Summed as u128, which no number of usize terms a value can hold
    // overflows, then saturated: cheaper than a saturating addition per
    // element (registry encode_size, callgrind: 31.4k instructions with
    // saturating_add, 26.4k so).
    let total: u128 = items.iter().map(|e| size(e) as u128).sum();
    usize::try_from(total).unwrap_or(usize::MAX)
}

/// The encoded size of an optional's value (0 when absent).
#[doc(hidden)]
#[inline]
pub fn option_size<T>(o: &Option<T>, size: impl FnOnce(&T) -> usize) -> usize {
    o.as_ref().map_or(0, size)
}

/// The encoded size of a boxed optional's value (0 when absent).
#[doc(hidden)]
#[inline]
pub fn option_box_size<T>(o: &Option<Box<T>>, size: impl FnOnce(&T) -> usize) -> usize {
    o.as_deref().map_or(0, size)
}

/// Converts an optional view.
#[doc(hidden)]
#[inline]
pub fn option_map<T, U>(o: &Option<T>, f: impl FnOnce(&T) -> U) -> Option<U> {
    o.as_ref().map(f)
}

/// Converts a boxed optional view.
#[doc(hidden)]
#[inline]
pub fn option_box<T, U>(o: &Option<Box<T>>, f: impl FnOnce(&T) -> U) -> Option<Box<U>> {
    o.as_ref().map(|v| Box::new(f(v)))
}

/// Moves exactly `N` values into a heap array without building it on the
/// stack.
///
/// # Panics
///
/// If `v` does not hold `N` values (the generated code always passes `N`).
#[doc(hidden)]
#[inline]
pub fn boxed<T, const N: usize>(v: Vec<T>) -> Box<[T; N]> {
    match Box::try_from(v.into_boxed_slice()) {
        Ok(b) => b,
        Err(_) => panic!("sdp: a fixed array of the wrong length"),
    }
}

/// A heap array of `N` values made by `f`, never built on the stack.
#[doc(hidden)]
#[inline]
pub fn boxed_with<T, const N: usize>(f: impl FnMut() -> T) -> Box<[T; N]> {
    boxed(::core::iter::repeat_with(f).take(N).collect())
}

/// Converts every element of a list view into a vector.
#[doc(hidden)]
#[inline]
pub fn map_list<'a, E: Valid<'a>, T>(list: ListView<'a, E>, f: impl FnMut(E) -> T) -> Vec<T> {
    list.iter().map(f).collect()
}

/// Converts every element of a fixed-array list view into an array.
#[doc(hidden)]
#[inline]
pub fn map_array<'a, E: Valid<'a>, T: Default, const N: usize>(
    list: ListView<'a, E>,
    f: impl FnMut(E) -> T,
) -> [T; N] {
    map_array_or(list, f, T::default)
}

/// Like [`map_array`], for element types without `Default` (arrays of more
/// than 32 elements): `fallback` would fill missing elements, which a
/// validated view never has.
#[doc(hidden)]
#[inline]
pub fn map_array_or<'a, E: Valid<'a>, T, const N: usize>(
    list: ListView<'a, E>,
    mut f: impl FnMut(E) -> T,
    mut fallback: impl FnMut() -> T,
) -> [T; N] {
    let mut it = list.iter();
    ::core::array::from_fn(|_| match it.next() {
        Some(e) => f(e),
        None => fallback(),
    })
}

/// An error about a message type id the schema does not define.
#[doc(hidden)]
pub fn unknown_type_id(type_id: u16) -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnknownTypeId(type_id), 4).with_path_prefix("message")
}

/// Appends a field name to a field path.
#[doc(hidden)]
#[cold]
pub fn push_field(path: &mut String, name: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(name);
}

/// Appends an array index to a field path.
#[doc(hidden)]
#[cold]
pub fn push_index(path: &mut String, i: usize) {
    use ::core::fmt::Write as _;
    let _ = write!(path, "[{i}]");
}

/// Reads a struct with `read`; on failure, names the struct and (found by
/// `field_at`, on the error path only) the field that failed.
#[doc(hidden)]
#[inline]
pub fn read_struct<'a, T>(
    r: &mut Reader<'a>,
    depth: u32,
    name: &'static str,
    read: impl FnOnce(&mut Reader<'a>, u32) -> Result<T, DecodeError>,
    field_at: fn(Reader<'a>, u32, usize, &mut String) -> Option<&'static str>,
) -> Result<T, DecodeError> {
    let start = r.pos;
    match read(r, depth) {
        Ok(v) => Ok(v),
        Err(e) if r.quiet => Err(e),
        Err(e) => Err(e.in_field(name, |at, path| {
            field_at(r.quiet_at(start), depth, at, path)
        })),
    }
}

/// Like [`read_struct`], for schemas with memory charges (rule 11): the
/// struct is re-read with the memory total it started with, so that a
/// memory error is found in the same field.
#[doc(hidden)]
#[inline]
pub fn read_struct_charged<'a, T>(
    r: &mut Reader<'a>,
    depth: u32,
    name: &'static str,
    read: impl FnOnce(&mut Reader<'a>, u32) -> Result<T, DecodeError>,
    field_at: fn(Reader<'a>, u32, usize, &mut String) -> Option<&'static str>,
) -> Result<T, DecodeError> {
    let (start, used) = (r.pos, r.mem_used);
    match read(r, depth) {
        Ok(v) => Ok(v),
        Err(e) if r.quiet => Err(e),
        Err(e) => Err(e.in_field(name, |at, path| {
            // Re-read with the memory total the struct started with.
            let mut again = r.quiet_at(start);
            again.mem_used = used;
            field_at(again, depth, at, path)
        })),
    }
}

/// Like [`read_struct`], decoding into an existing value with `read`.
#[doc(hidden)]
#[inline]
pub fn read_struct_into<'a, T>(
    value: &mut T,
    r: &mut Reader<'a>,
    depth: u32,
    name: &'static str,
    read: impl FnOnce(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>,
    field_at: fn(Reader<'a>, u32, usize, &mut String) -> Option<&'static str>,
) -> Result<(), DecodeError> {
    let start = r.pos;
    match read(value, r, depth) {
        Ok(()) => Ok(()),
        Err(e) if r.quiet => Err(e),
        Err(e) => Err(e.in_field(name, |at, path| {
            field_at(r.quiet_at(start), depth, at, path)
        })),
    }
}

/// Decodes a union (or a struct without fields) into an existing value with
/// `read`, naming the type in errors.
#[doc(hidden)]
#[inline]
pub fn read_union_into<'a, T>(
    value: &mut T,
    r: &mut Reader<'a>,
    depth: u32,
    name: &'static str,
    read: impl FnOnce(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    read(value, r, depth).map_err(|e| e.inside(name))
}

/// Reads a union decoded on its own (not as a field) with `read`; on an
/// error, puts the variant and the fields inside it in front of the error's
/// path (`Circle.radius`, `Rect.width`), found by `path_in` on the error path
/// only, as a struct does for a union field.
#[doc(hidden)]
#[inline]
pub fn read_top_union<'a, T>(
    r: &mut Reader<'a>,
    depth: u32,
    read: impl FnOnce(&mut Reader<'a>, u32) -> Result<T, DecodeError>,
    path_in: fn(Reader<'a>, u32, usize, &mut String),
) -> Result<T, DecodeError> {
    let (start, used) = (r.pos, r.mem_used);
    match read(r, depth) {
        Ok(v) => Ok(v),
        Err(e) => Err(top_union_path(e, r, start, used, depth, path_in)),
    }
}

/// The error of a union decoded on its own, with the path `path_in` finds
/// when it re-reads the union from `start` with the memory total `used`.
#[cold]
#[inline(never)]
fn top_union_path<'a>(
    e: DecodeError,
    r: &Reader<'a>,
    start: usize,
    used: u64,
    depth: u32,
    path_in: fn(Reader<'a>, u32, usize, &mut String),
) -> DecodeError {
    let mut again = r.quiet_at(start);
    again.mem_used = used;
    let mut path = String::new();
    path_in(again, depth, e.offset, &mut path);
    e.with_path_prefix(&path)
}

/// Like [`read_struct_charged`], decoding into an existing value with `read`.
#[doc(hidden)]
#[inline]
pub fn read_struct_charged_into<'a, T>(
    value: &mut T,
    r: &mut Reader<'a>,
    depth: u32,
    name: &'static str,
    read: impl FnOnce(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>,
    field_at: fn(Reader<'a>, u32, usize, &mut String) -> Option<&'static str>,
) -> Result<(), DecodeError> {
    let (start, used) = (r.pos, r.mem_used);
    match read(value, r, depth) {
        Ok(()) => Ok(()),
        Err(e) if r.quiet => Err(e),
        Err(e) => Err(e.in_field(name, |at, path| {
            let mut again = r.quiet_at(start);
            again.mem_used = used;
            field_at(again, depth, at, path)
        })),
    }
}

/// Decodes a whole input into `value` with `read` (trailing bytes are an
/// error); on any error `value` is reset to its default.
#[doc(hidden)]
pub fn decode_all_into<'a, T: Default>(
    bytes: &'a [u8],
    options: DecodeOptions,
    value: &mut T,
    read: impl FnOnce(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let mut r = Reader::new(bytes, options);
    let result = read(value, &mut r, 1).and_then(|()| r.finish());
    if result.is_err() {
        reset(value);
    }
    result
}

/// Resets a value whose decoding failed.
#[cold]
#[inline(never)]
fn reset<T: Default>(value: &mut T) {
    *value = T::default();
}

/// Whether a read failed (the error itself is not needed).
#[doc(hidden)]
#[inline]
pub fn failed<T>(result: Result<T, DecodeError>) -> bool {
    result.is_err()
}

/// Decodes a whole input with `read`: trailing bytes are an error.
#[doc(hidden)]
pub fn decode_all<'a, T>(
    bytes: &'a [u8],
    options: DecodeOptions,
    read: impl FnOnce(&mut Reader<'a>, u32) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    let mut r = Reader::new(bytes, options);
    let v = read(&mut r, 1)?;
    r.finish()?;
    Ok(v)
}

/// Decodes a value at the start of the input; returns it with the bytes used.
#[doc(hidden)]
pub fn decode_prefix<'a, T>(
    bytes: &'a [u8],
    options: DecodeOptions,
    read: impl FnOnce(&mut Reader<'a>, u32) -> Result<T, DecodeError>,
) -> Result<(T, usize), DecodeError> {
    let mut r = Reader::new(bytes, options);
    let v = read(&mut r, 1)?;
    Ok((v, r.position()))
}

/// The error of the fallible encoders (`try_encode`, `try_encode_to_vec`,
/// `try_encode_message`, a `MessageWriter`, and the `write_to` methods as
/// an [`io::ErrorKind::InvalidInput`] error): a value that has no encoding
/// (docs/wire-format.md, "Values that have no encoding"). Nothing was
/// appended or written. Rust's types hold no undeclared enum number, no
/// valueless union, no string that is not UTF-8 and no fixed array of
/// another length, so the rules are:
///
/// - `count`: a string, byte string or array longer than the wire format's
///   u32 count allows; the path names it.
/// - `size`: an encoding larger than `usize` counts (a 32-bit host); the
///   path is empty.
/// - `message`: a message payload over a `MessageWriter`'s maximum size
///   ([`EncodeError::max_size`]) or over the header's u32 length; the path
///   is `message`.
///
/// Its text has the layout of every SDP language (docs/api.md, "One layout
/// of error text"): `<rule> in <path>: <message>`, or `<rule>: <message>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EncodeError {
    rule: &'static str,
    length: usize,
    max_size: Option<usize>,
    // Built on the error path only.
    path: Option<Box<str>>,
}

impl EncodeError {
    /// The name of the broken rule: `"count"`, `"size"` or `"message"`.
    pub const fn rule(&self) -> &'static str {
        self.rule
    }

    /// The field path of the value, as a decoder reports it
    /// (`plugins[3].name`, `shape.Rect.points`); empty for rule `size`,
    /// `"message"` for rule `message`.
    pub fn path(&self) -> &str {
        self.path.as_deref().unwrap_or("")
    }

    /// The length that does not fit in a u32, the size of the payload, or
    /// for rule `size` `usize::MAX`.
    pub const fn length(&self) -> usize {
        self.length
    }

    /// The writer's maximum payload size when the error is a payload over
    /// it; `None` otherwise.
    pub const fn max_size(&self) -> Option<usize> {
        self.max_size
    }

    /// A message payload of `length` bytes over a writer's maximum size.
    #[doc(hidden)]
    #[cold]
    pub fn over_max_size(length: usize, max_size: usize) -> Self {
        EncodeError {
            rule: "message",
            length,
            max_size: Some(max_size),
            path: Some("message".into()),
        }
    }

    /// A message payload of `length` bytes, over the header's u32 length.
    #[doc(hidden)]
    #[cold]
    pub fn payload_too_large(length: usize) -> Self {
        EncodeError {
            rule: "message",
            length,
            max_size: None,
            path: Some("message".into()),
        }
    }

    /// An encoding larger than `usize` counts (its size saturated).
    #[doc(hidden)]
    #[cold]
    pub const fn too_large() -> Self {
        EncodeError {
            rule: "size",
            length: usize::MAX,
            max_size: None,
            path: None,
        }
    }

    /// The error with the field name `segment` put in front of its path.
    #[doc(hidden)]
    #[cold]
    #[must_use]
    pub fn in_field(mut self, segment: &str) -> Self {
        let mut path = String::from(segment);
        match self.path.as_deref() {
            Some(rest) if rest.starts_with('[') => path.push_str(rest),
            Some(rest) if !rest.is_empty() => {
                path.push('.');
                path.push_str(rest);
            }
            _ => {}
        }
        self.path = Some(path.into_boxed_str());
        self
    }

    /// The error with the element index `[i]` put in front of its path.
    #[doc(hidden)]
    #[cold]
    #[must_use]
    pub fn in_element(mut self, i: usize) -> Self {
        let mut path = format!("[{i}]");
        match self.path.as_deref() {
            Some(rest) if rest.starts_with('[') => path.push_str(rest),
            Some(rest) if !rest.is_empty() => {
                path.push('.');
                path.push_str(rest);
            }
            _ => {}
        }
        self.path = Some(path.into_boxed_str());
        self
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rule)?;
        if let Some(path) = self.path.as_deref().filter(|p| !p.is_empty()) {
            write!(f, " in {path}")?;
        }
        match (self.rule, self.max_size) {
            (_, Some(max)) => write!(
                f,
                ": a message payload of {} bytes is over the writer's maximum size of {max} bytes",
                self.length
            ),
            ("size", None) => f.write_str(": the encoding is larger than usize can count"),
            ("message", None) => write!(
                f,
                ": a message payload of {} bytes is over the header's u32 length",
                self.length
            ),
            _ => write!(
                f,
                ": a length of {} exceeds the wire format's u32 count",
                self.length
            ),
        }
    }
}

impl std::error::Error for EncodeError {}

impl From<EncodeError> for io::Error {
    fn from(e: EncodeError) -> Self {
        io::Error::new(io::ErrorKind::InvalidInput, e)
    }
}

/// The encoding and decoding every generated type has (struct, enum and
/// union), for code generic over them, as `prost::Message` is for prost's
/// types. Each method forwards to the type's inherent method of the same
/// name, so calling either is the same.
pub trait SdpType: Sized + Default {
    /// The fingerprint of the type's wire shape (`T::FINGERPRINT`).
    const FINGERPRINT: u64;

    /// The exact number of bytes `encode` appends.
    fn encoded_size(&self) -> usize;

    /// Appends the encoded value.
    ///
    /// # Panics
    ///
    /// If a length or count does not fit the wire format's u32 (see
    /// `try_encode`).
    fn encode(&self, out: &mut Vec<u8>);

    /// Encodes the value into a new vector of its exact size.
    ///
    /// # Panics
    ///
    /// As `encode`.
    fn encode_to_vec(&self) -> Vec<u8>;

    /// Appends the encoded value, or returns an error, appending nothing,
    /// when a length or count does not fit the wire format's u32.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] naming the length that does not fit.
    fn try_encode(&self, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Encodes the value into a new vector, or returns an error.
    ///
    /// # Errors
    ///
    /// As `try_encode`.
    fn try_encode_to_vec(&self) -> Result<Vec<u8>, EncodeError>;

    /// Decodes a value that spans all of `bytes`, with the default options.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] for input that breaks a rule of the wire format.
    fn decode(bytes: &[u8]) -> DecodeResult<Self>;

    /// Decodes a value that spans all of `bytes` with `options`.
    ///
    /// # Errors
    ///
    /// As `decode`, or a limit exceeded.
    fn decode_with(bytes: &[u8], options: DecodeOptions) -> DecodeResult<Self>;

    /// Decodes a value at the start of `bytes`: the value and the number of
    /// bytes it used.
    ///
    /// # Errors
    ///
    /// As `decode`.
    fn decode_prefix(bytes: &[u8]) -> DecodeResult<(Self, usize)>;

    /// Decodes a value that spans all of `bytes` into `self`, reusing its
    /// storage; on an error `self` is reset to its default.
    ///
    /// # Errors
    ///
    /// As `decode`.
    fn decode_into(&mut self, bytes: &[u8]) -> DecodeResult<()>;

    /// Decodes into `self` with `options`, as `decode_into`.
    ///
    /// # Errors
    ///
    /// As `decode_with`.
    fn decode_into_with(&mut self, bytes: &[u8], options: DecodeOptions) -> DecodeResult<()>;
}

/// What every generated struct has beyond [`SdpType`]: it is a message of
/// the schema, with a type id and the framed encoders and decoders. Each
/// method forwards to the struct's inherent method of the same name.
pub trait SdpMessage: SdpType {
    /// The message type id (`T::TYPE_ID`).
    const TYPE_ID: u16;

    /// Appends the value as a message: header, then payload.
    ///
    /// # Panics
    ///
    /// As [`SdpType::encode`].
    fn encode_message_into(&self, out: &mut Vec<u8>);

    /// Encodes the value as a message: header, then payload.
    ///
    /// # Panics
    ///
    /// As [`SdpType::encode`].
    fn encode_message(&self) -> Vec<u8>;

    /// Appends the value as a message, or returns an error, appending
    /// nothing.
    ///
    /// # Errors
    ///
    /// As [`SdpType::try_encode`].
    fn try_encode_message_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError>;

    /// Decodes a message of this type that spans all of `bytes`.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] for a bad header, another type id or a bad payload.
    fn decode_message(bytes: &[u8]) -> DecodeResult<Self>;

    /// Decodes a message of this type with `options`.
    ///
    /// # Errors
    ///
    /// As `decode_message`, or a limit exceeded.
    fn decode_message_with(bytes: &[u8], options: DecodeOptions) -> DecodeResult<Self>;
}

/// A value a `MessageWriter` can write: every generated struct (through
/// [`SdpMessage`]) and the schema's `Message` dispatcher.
pub trait EncodeMessage {
    /// Appends the value as a message, or returns an error, appending
    /// nothing (as `try_encode_message_into`).
    ///
    /// # Errors
    ///
    /// As [`SdpType::try_encode`].
    fn try_encode_message_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError>;
}

impl<T: SdpMessage> EncodeMessage for T {
    #[inline]
    fn try_encode_message_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        SdpMessage::try_encode_message_into(self, out)
    }
}

/// The error of an enum's `TryFrom` of its underlying integer: the number
/// names no value of the enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EnumValueError {
    enum_name: &'static str,
    value: u32,
}

impl EnumValueError {
    #[doc(hidden)]
    pub const fn new(enum_name: &'static str, value: u32) -> Self {
        Self { enum_name, value }
    }

    /// The number that names no value.
    pub const fn value(&self) -> u32 {
        self.value
    }

    /// The schema name of the enum.
    pub const fn enum_name(&self) -> &'static str {
        self.enum_name
    }
}

impl fmt::Display for EnumValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a value of enum {}",
            self.value, self.enum_name
        )
    }
}

impl std::error::Error for EnumValueError {}

/// Checks that a length or count fits the wire's u32.
#[doc(hidden)]
#[inline]
pub fn check_len(n: usize) -> Result<(), EncodeError> {
    match u32::try_from(n) {
        Ok(_) => Ok(()),
        Err(_) => Err(EncodeError {
            rule: "count",
            length: n,
            max_size: None,
            path: None,
        }),
    }
}

/// A reader's or writer's maximum payload size: 0 means the default,
/// [`DEFAULT_MAX_MESSAGE_SIZE`] (docs/api.md, "Options: one meaning in every
/// language").
#[doc(hidden)]
#[inline]
pub const fn max_size_or_default(max_size: usize) -> usize {
    if max_size == 0 {
        DEFAULT_MAX_MESSAGE_SIZE
    } else {
        max_size
    }
}

/// Whether an encoded size fits in a u32. Every length and count of a
/// value is at most its encoded size (no array element encodes to zero
/// bytes), so the per-length check (`check_lengths`) is needed only when it
/// does not.
#[doc(hidden)]
#[inline]
pub fn fits_u32(n: usize) -> bool {
    u32::try_from(n).is_ok()
}

/// The check of the fallible encoders on a value of `size` bytes (its
/// saturated [`encoded_size`](SdpType::encoded_size)): one comparison when
/// the size fits a u32; otherwise `check` walks the lengths (rule `count`,
/// in encoding order), and a size that `usize` cannot count is rule
/// `size`.
#[doc(hidden)]
#[inline]
pub fn check_size(
    size: usize,
    check: impl FnOnce() -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    if fits_u32(size) && size != usize::MAX {
        return Ok(());
    }
    check_whole(size, check)
}

#[cold]
fn check_whole(
    size: usize,
    check: impl FnOnce() -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    check()?;
    if size == usize::MAX {
        return Err(EncodeError::too_large());
    }
    Ok(())
}

/// The check of the fallible message encoders on a payload of `size`
/// bytes: as [`check_size`], then a payload over the header's u32 length
/// is rule `message`.
#[doc(hidden)]
#[inline]
pub fn check_payload(
    size: usize,
    check: impl FnOnce() -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    if fits_u32(size) && size != usize::MAX {
        return Ok(());
    }
    check_whole(size, check)?;
    Err(EncodeError::payload_too_large(size))
}

/// Puts the path of a value, `field` and then `[i]` for each of
/// `indices`, in front of an error's path (the error path of
/// `check_lengths`).
#[doc(hidden)]
pub fn in_path<'a>(
    field: &'a str,
    indices: &'a [usize],
) -> impl FnOnce(EncodeError) -> EncodeError + 'a {
    move |mut e| {
        for &i in indices.iter().rev() {
            e = e.in_element(i);
        }
        e.in_field(field)
    }
}

/// Appends a u32 length or count.
///
/// # Panics
///
/// If `n` exceeds `u32::MAX`: the wire format cannot carry such a string or
/// array.
#[doc(hidden)]
#[inline]
pub fn put_len(out: &mut Vec<u8>, n: usize) {
    match u32::try_from(n) {
        Ok(n) => out.extend_from_slice(&n.to_le_bytes()),
        Err(_) => panic!("sdp: length {n} exceeds the wire format's u32 limit"),
    }
}

/// Appends a string.
#[doc(hidden)]
#[inline]
pub fn put_str(out: &mut Vec<u8>, s: &str) {
    put_bytes(out, s.as_bytes());
}

/// Appends a `[]u8`: its length, then its bytes, with one capacity check.
/// Short byte strings are copied with two overlapping fixed-size moves
/// rather than a `memcpy` call. (Measured: the call and the per-append
/// capacity checks were most of the cost of encoding the plugin registry,
/// whose strings average 7 bytes.)
#[doc(hidden)]
#[inline]
pub fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    let n = match u32::try_from(b.len()) {
        Ok(n) => n,
        Err(_) => panic!(
            "sdp: length {} exceeds the wire format's u32 limit",
            b.len()
        ),
    };
    let len = out.len();
    out.reserve(4 + b.len());
    // SAFETY: `reserve` made room for `4 + b.len()` bytes after `len`; the
    // writes below cover exactly that range (the overlapping moves write
    // bytes of `b` inside it twice) and read only within `b`; then the
    // length covers the initialized bytes.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        dst.cast::<[u8; 4]>().write_unaligned(n.to_le_bytes());
        copy_small(b, dst.add(4));
        out.set_len(len + 4 + b.len());
    }
}

/// Copies `src` to `dst`: two overlapping fixed-size moves for up to 32
/// bytes, `copy_nonoverlapping` for more.
///
/// # Safety
///
/// `dst` is valid for `src.len()` bytes of writes and does not overlap `src`.
#[inline(always)]
unsafe fn copy_small(src: &[u8], dst: *mut u8) {
    let n = src.len();
    let s = src.as_ptr();
    // SAFETY: every read is within `src` and every write within
    // `dst..dst + n` (the offsets `n - 16`, `n - 8`, `n - 4` and `n - 1`
    // are taken only when `n` is at least 16, 8, 4 or 1).
    unsafe {
        if n > 16 {
            if n > 32 {
                ::core::ptr::copy_nonoverlapping(s, dst, n);
                return;
            }
            let a = s.cast::<[u8; 16]>().read_unaligned();
            let b = s.add(n - 16).cast::<[u8; 16]>().read_unaligned();
            dst.cast::<[u8; 16]>().write_unaligned(a);
            dst.add(n - 16).cast::<[u8; 16]>().write_unaligned(b);
        } else if n >= 8 {
            let a = s.cast::<[u8; 8]>().read_unaligned();
            let b = s.add(n - 8).cast::<[u8; 8]>().read_unaligned();
            dst.cast::<[u8; 8]>().write_unaligned(a);
            dst.add(n - 8).cast::<[u8; 8]>().write_unaligned(b);
        } else if n >= 4 {
            let a = s.cast::<[u8; 4]>().read_unaligned();
            let b = s.add(n - 4).cast::<[u8; 4]>().read_unaligned();
            dst.cast::<[u8; 4]>().write_unaligned(a);
            dst.add(n - 4).cast::<[u8; 4]>().write_unaligned(b);
        } else if n > 0 {
            // 1 to 3 bytes: the first, the middle and the last (some twice).
            *dst = *s;
            *dst.add(n / 2) = *s.add(n / 2);
            *dst.add(n - 1) = *s.add(n - 1);
        }
    }
}

/// Appends a bool.
#[doc(hidden)]
#[inline]
pub fn put_bool(out: &mut Vec<u8>, b: bool) {
    out.push(u8::from(b));
}

/// Appends a `[]T` of scalars (in bulk on little-endian hosts).
#[doc(hidden)]
#[inline]
pub fn put_scalars<T: Scalar>(out: &mut Vec<u8>, values: &[T]) {
    put_len(out, values.len());
    T::extend_le(out, values);
}

/// Appends a `[N]T` of scalars: no count.
#[doc(hidden)]
#[inline]
pub fn put_scalar_array<T: Scalar>(out: &mut Vec<u8>, values: &[T]) {
    T::extend_le(out, values);
}

/// Appends the plain values of a `[N]T`, or of a `[]T` after its count: one
/// copy on little-endian hosts.
#[doc(hidden)]
#[inline]
pub fn put_plain<T: Plain>(out: &mut Vec<u8>, values: &[T]) {
    #[cfg(target_endian = "little")]
    {
        // SAFETY: T: Plain has no padding, so all size_of_val(values) bytes
        // are initialized, and they are the values' encoding.
        let bytes = unsafe {
            ::core::slice::from_raw_parts(
                values.as_ptr().cast::<u8>(),
                ::core::mem::size_of_val(values),
            )
        };
        out.extend_from_slice(bytes);
    }
    #[cfg(not(target_endian = "little"))]
    for v in values {
        v.put_plain(out);
    }
}

/// Appends a message header.
#[doc(hidden)]
pub fn put_message_header(out: &mut Vec<u8>, type_id: u16, payload_len: usize) {
    out.extend_from_slice(&MESSAGE_MAGIC);
    out.extend_from_slice(&type_id.to_le_bytes());
    put_len(out, payload_len);
}

/// The type id of a hello, the message a stream may start with so that the
/// reader checks that both ends were built from the same version of the
/// schema (docs/wire-format.md, "The schema check (hello)"); no struct has it.
pub const HELLO_TYPE_ID: u16 = 0;

/// One struct of a schema as a hello lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HelloEntry {
    /// The struct's message type id.
    pub type_id: u16,
    /// The fingerprint of its wire shape (its `FINGERPRINT`).
    pub fingerprint: u64,
    /// Its schema name.
    pub name: &'static str,
}

/// Appends the hello listing `entries` (sorted by type id).
#[doc(hidden)]
pub fn put_hello(out: &mut Vec<u8>, entries: &[HelloEntry]) {
    let size = 4 + 10 * entries.len();
    out.reserve(MESSAGE_HEADER_SIZE + size);
    put_message_header(out, HELLO_TYPE_ID, size);
    put_len(out, entries.len());
    for e in entries {
        out.extend_from_slice(&e.type_id.to_le_bytes());
        out.extend_from_slice(&e.fingerprint.to_le_bytes());
    }
}

/// Checks the payload of a hello against the schema's `entries` (sorted by
/// type id), in the order of docs/wire-format.md: the length, then entry by
/// entry the type id and the fingerprint of a struct the schema has.
/// Offsets count from the start of the message.
fn check_hello(entries: &[HelloEntry], payload: &[u8]) -> Result<(), DecodeError> {
    let bad_length = DecodeError::new(
        DecodeErrorKind::HelloLength {
            payload: payload.len(),
        },
        6,
    );
    let mut r = Reader::new(payload, DecodeOptions::new());
    let n = r.u32().map_err(|_| bad_length.clone())?;
    if u64::try_from(payload.len()).ok() != Some(4 + 10 * u64::from(n)) {
        return Err(bad_length);
    }
    let mut prev: Option<u16> = None;
    for entry in 0..n {
        let at = MESSAGE_HEADER_SIZE + r.position();
        let type_id = r.u16()?;
        let theirs = r.u64()?;
        if type_id == HELLO_TYPE_ID || prev.is_some_and(|p| type_id <= p) {
            let kind = DecodeErrorKind::HelloTypeId { entry, type_id };
            return Err(DecodeError::new(kind, at));
        }
        prev = Some(type_id);
        let Ok(i) = entries.binary_search_by_key(&type_id, |e| e.type_id) else {
            continue;
        };
        let Some(ours) = entries.get(i) else {
            continue;
        };
        if ours.fingerprint != theirs {
            let kind = DecodeErrorKind::SchemaMismatch {
                type_id,
                name: ours.name,
                theirs,
                ours: ours.fingerprint,
            };
            return Err(DecodeError::new(kind, at + 2).inside(ours.name));
        }
    }
    Ok(())
}

/// Splits a message of the expected type id into its payload.
#[doc(hidden)]
pub fn expect_message(bytes: &[u8], type_id: u16) -> Result<&[u8], DecodeError> {
    let (_, payload) = split_header(bytes, |found| {
        if found != type_id {
            let kind = DecodeErrorKind::WrongTypeId {
                expected: type_id,
                found,
            };
            return Err(DecodeError::new(kind, 4).with_path_prefix("message"));
        }
        Ok(())
    })?;
    Ok(payload)
}

/// Splits a message into its type id and its payload, checking the magic and
/// the declared length.
pub fn split_message(bytes: &[u8]) -> Result<(u16, &[u8]), DecodeError> {
    split_header(bytes, |_| Ok(()))
}

/// Like [`split_message`], for a dispatcher: a type id that `type_name`
/// does not know is an error, found before the declared length is checked.
#[doc(hidden)]
pub fn split_known_message(
    bytes: &[u8],
    type_name: fn(u16) -> Option<&'static str>,
) -> Result<(u16, &[u8]), DecodeError> {
    split_header(bytes, |id| match type_name(id) {
        Some(_) => Ok(()),
        None => Err(unknown_type_id(id)),
    })
}

/// Checks a message header front to back, as every SDP decoder does: an
/// input shorter than the header (truncated, offset 0), the magic (0), the
/// type id (`check`, 4), the declared length (6).
fn split_header(
    bytes: &[u8],
    check: impl FnOnce(u16) -> Result<(), DecodeError>,
) -> Result<(u16, &[u8]), DecodeError> {
    let Some((header, payload)) = bytes.split_first_chunk::<MESSAGE_HEADER_SIZE>() else {
        return Err(DecodeError::new(DecodeErrorKind::Truncated, 0).with_path_prefix("message"));
    };
    if header[..4] != MESSAGE_MAGIC[..] {
        return Err(DecodeError::new(DecodeErrorKind::BadMagic, 0).with_path_prefix("message"));
    }
    let id = u16::from_le_bytes([header[4], header[5]]);
    check(id)?;
    let declared = u32::from_le_bytes([header[6], header[7], header[8], header[9]]);
    if usize::try_from(declared).ok() != Some(payload.len()) {
        let kind = DecodeErrorKind::PayloadLengthMismatch {
            declared,
            actual: payload.len(),
        };
        return Err(DecodeError::new(kind, 6).with_path_prefix("message"));
    }
    Ok((id, payload))
}

/// Decodes a message payload with `read`, reporting offsets within the
/// whole message.
#[doc(hidden)]
pub fn decode_payload<'a, T>(
    payload: &'a [u8],
    options: DecodeOptions,
    read: impl FnOnce(&mut Reader<'a>, u32) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    decode_all(payload, options, read).map_err(|mut e| {
        e.offset = e.offset.saturating_add(MESSAGE_HEADER_SIZE);
        e
    })
}

/// Decodes a message payload into `value` with `read`, reporting offsets
/// within the whole message; on any error `value` is reset to its default.
#[doc(hidden)]
pub fn decode_payload_into<'a, T: Default>(
    payload: &'a [u8],
    options: DecodeOptions,
    value: &mut T,
    read: impl FnOnce(&mut T, &mut Reader<'a>, u32) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    decode_all_into(payload, options, value, read).map_err(|mut e| {
        e.offset = e.offset.saturating_add(MESSAGE_HEADER_SIZE);
        e
    })
}

/// Where a stream reader is: the index and stream offset of the message it
/// reads, and the error that left it inside a message (the stream cannot be
/// followed then: every read returns that error again).
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct StreamPosition {
    index: usize,
    offset: usize,
    size: usize,
    lost: Option<Lost>,
    checked: bool,
}

/// The error that ended a stream, kept to be returned again (an
/// [`io::Error`] is not `Clone`: its kind and text are kept).
#[derive(Debug, Clone)]
enum Lost {
    Decode(DecodeError),
    Io(io::ErrorKind),
}

impl StreamPosition {
    /// Whether the stream began with a hello that agreed with the schema.
    pub fn schema_checked(&self) -> bool {
        self.checked
    }

    /// Whether an error ended the stream.
    pub fn is_lost(&self) -> bool {
        self.lost.is_some()
    }

    /// The error that ended the stream, again.
    fn again(&self) -> Option<StreamError> {
        match self.lost.as_ref()? {
            Lost::Decode(e) => Some(e.clone().into()),
            &Lost::Io(kind) => {
                Some(io::Error::new(kind, "the stream failed before (see the first error)").into())
            }
        }
    }

    /// Reports an I/O error: the stream ends.
    #[cold]
    fn io_failed(&mut self, e: io::Error) -> StreamError {
        self.lost = Some(Lost::Io(e.kind()));
        e.into()
    }

    /// The error of the current message, its offset moved from the message
    /// to the stream.
    fn place(&self, mut e: DecodeError) -> DecodeError {
        e.offset = e.offset.saturating_add(self.offset);
        e.index = self.index.min(NO_INDEX - 1);
        e.start = self.offset;
        e
    }

    /// Moves past the current message, read whole.
    pub fn advance(&mut self) {
        self.index = self.index.saturating_add(1);
        self.offset = self.offset.saturating_add(self.size);
    }

    /// Reports an error of a message read whole (its offset counted from
    /// the message's header) and moves past it: reading can go on.
    #[cold]
    pub fn reject(&mut self, e: DecodeError) -> StreamError {
        let mut e = self.place(e);
        e.skippable = true;
        self.advance();
        e.into()
    }

    /// Reports an error that leaves the reader inside a message: every
    /// further read returns it again.
    #[cold]
    fn fail(&mut self, e: DecodeError) -> StreamError {
        // What ends a stream is in a header, a cut payload or a hello: its
        // path is `message`, as in every SDP backend.
        let mut e = self.place(e);
        if e.path().is_empty() {
            e = e.with_path_prefix("message");
        }
        self.lost = Some(Lost::Decode(e.clone()));
        e.into()
    }
}

/// Reads one message frame of a stream into `buf` (its payload); returns its
/// type id, or `None` at the end of the stream. The header is checked front
/// to back (docs/wire-format.md, "Streams"): the magic, the type id (`known`),
/// the declared payload length against `max` (refused before anything is
/// allocated for it), then the payload's presence. A message of an unknown
/// type id whose payload is at most `max` is skipped, so reading can go on
/// after its error. After an error inside a message, every read returns
/// that error again.
///
/// A hello that is the stream's first message is checked against `hello`
/// (the schema's structs by type id) and not returned: the next frame is
/// read (as message 1). A hello that disagrees, or is malformed, ends the
/// stream: it cannot be skipped. With `require_hello`, a first message that
/// is not a hello is refused (rule `schema`) and ends the stream.
#[doc(hidden)]
pub fn read_frame<R: io::Read + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
    known: impl Fn(u16) -> bool,
    hello: &[HelloEntry],
    require_hello: bool,
    pos: &mut StreamPosition,
) -> Result<Option<u16>, StreamError> {
    loop {
        let first = pos.index == 0;
        let frame = read_one_frame(
            r,
            buf,
            max,
            |id| (first && id == HELLO_TYPE_ID) || known(id),
            first && require_hello,
            pos,
        )?;
        if !(first && frame == Some(HELLO_TYPE_ID)) {
            return Ok(frame);
        }
        if let Err(e) = check_hello(hello, buf) {
            return Err(pos.fail(e));
        }
        pos.checked = true;
        pos.advance();
    }
}

/// Reads one frame for [`read_frame`]; with `require_hello`, a type id
/// other than a hello's is refused.
fn read_one_frame<R: io::Read + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
    known: impl FnOnce(u16) -> bool,
    require_hello: bool,
    pos: &mut StreamPosition,
) -> Result<Option<u16>, StreamError> {
    if let Some(e) = pos.again() {
        return Err(e);
    }
    let mut header = [0u8; MESSAGE_HEADER_SIZE];
    let mut got = 0;
    while got < header.len() {
        let dst = header.get_mut(got..).unwrap_or(&mut []);
        match r.read(dst) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(pos.fail(DecodeError::new(DecodeErrorKind::Truncated, 0))),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(pos.io_failed(e)),
        }
    }
    let mut hr = Reader::new(&header, DecodeOptions::new());
    let magic = hr.take(4)?;
    if magic != MESSAGE_MAGIC {
        return Err(pos.fail(DecodeError::new(DecodeErrorKind::BadMagic, 0)));
    }
    let id = hr.u16()?;
    if require_hello && id != HELLO_TYPE_ID {
        return Err(pos.fail(DecodeError::new(DecodeErrorKind::HelloRequired, 4)));
    }
    let declared = hr.u32()?;
    let len = usize::try_from(declared).ok().filter(|&n| n <= max);
    // A payload is read with the bytes that actually arrive, not allocated
    // for the declared length.
    let mut payload = io::Read::take(&mut *r, u64::from(declared));
    if !known(id) {
        let e = DecodeError::new(DecodeErrorKind::UnknownTypeId(id), 4).with_path_prefix("message");
        let Some(len) = len else {
            return Err(pos.fail(e));
        };
        let skipped = match io::copy(&mut payload, &mut io::sink()) {
            Ok(n) => n,
            Err(io) => return Err(pos.io_failed(io)),
        };
        if skipped != u64::from(declared) {
            return Err(pos.fail(e));
        }
        pos.size = MESSAGE_HEADER_SIZE.saturating_add(len);
        return Err(pos.reject(e));
    }
    let Some(len) = len else {
        let kind = DecodeErrorKind::MessageTooLarge { declared, max };
        return Err(pos.fail(DecodeError::new(kind, 6)));
    };
    buf.clear();
    if let Err(e) = io::Read::read_to_end(&mut payload, buf) {
        return Err(pos.io_failed(e));
    }
    if buf.len() != len {
        let e = DecodeError::new(DecodeErrorKind::Truncated, MESSAGE_HEADER_SIZE);
        return Err(pos.fail(e));
    }
    pos.size = MESSAGE_HEADER_SIZE.saturating_add(len);
    Ok(Some(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_roundtrip_in_bulk() {
        let values: Vec<u32> = vec![0, 1, 0xdead_beef, u32::MAX];
        let mut out = Vec::new();
        put_scalars(&mut out, &values);
        assert_eq!(out.len(), 4 + 16);
        assert_eq!(&out[4..8], &[0, 0, 0, 0]);
        assert_eq!(&out[8..12], &[1, 0, 0, 0]);
        assert_eq!(&out[12..16], &[0xef, 0xbe, 0xad, 0xde]);
        let mut r = Reader::new(&out, DecodeOptions::new());
        assert_eq!(r.scalar_vec::<u32>().unwrap(), values);
        r.finish().unwrap();

        let floats = [
            1.5f64,
            -0.0,
            f64::INFINITY,
            f64::from_bits(0x7ff8_0000_0000_0001),
        ];
        let mut out = Vec::new();
        put_scalar_array(&mut out, &floats);
        let back: [f64; 4] = Reader::new(&out, DecodeOptions::new())
            .scalar_array()
            .unwrap();
        for (a, b) in floats.iter().zip(back.iter()) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
    }

    #[test]
    fn scalar_vec_into_replaces_the_contents() {
        let mut out = Vec::new();
        put_scalars(&mut out, &[1u32, 2, 0xdead_beef]);
        let mut v = vec![9u32; 10];
        let cap = v.capacity();
        Reader::new(&out, DecodeOptions::new())
            .scalar_vec_into(&mut v)
            .unwrap();
        assert_eq!(
            (v.as_slice(), v.capacity()),
            (&[1, 2, 0xdead_beef][..], cap)
        );
        let mut flags = vec![false; 3];
        let bools = [4u8, 0, 0, 0, 1, 0, 1, 1];
        Reader::new(&bools, DecodeOptions::new())
            .scalar_vec_into(&mut flags)
            .unwrap();
        assert_eq!(flags, [true, false, true, true]);
        let e = Reader::new(&[1, 0, 0, 0, 2], DecodeOptions::new())
            .scalar_vec_into(&mut flags)
            .unwrap_err();
        assert_eq!(e.rule(), "bool");
    }

    /// A plain struct as the generator writes one, nested one level.
    #[derive(Debug, Clone, Copy, PartialEq, Default)]
    #[repr(C)]
    struct Pair {
        a: u32,
        b: f32,
    }

    impl Pair {
        fn put(&self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.a.to_le_bytes());
            out.extend_from_slice(&self.b.to_le_bytes());
        }

        fn read(r: &mut Reader<'_>, depth: u32) -> DecodeResult<Self> {
            r.enter(depth)?;
            Ok(Pair {
                a: r.u32()?,
                b: r.f32()?,
            })
        }
    }

    // SAFETY: repr(C), two 4-byte numbers at offsets 0 and 4.
    unsafe impl Plain for Pair {
        const SIZE: usize = 8;
        const DEPTH: u32 = 1;

        fn put_plain(&self, out: &mut Vec<u8>) {
            self.put(out);
        }
    }

    #[test]
    fn plain_arrays_copy_in_bulk_or_report_the_exact_error() {
        let values = [
            Pair { a: 1, b: -0.0 },
            Pair {
                a: u32::MAX,
                b: f32::from_bits(0x7fc0_0001),
            },
            Pair { a: 7, b: 2.5 },
        ];
        let mut out = Vec::new();
        put_len(&mut out, values.len());
        put_plain(&mut out, &values);
        // The element-by-element encoding (big-endian hosts) is the same.
        let mut elementwise = Vec::new();
        put_len(&mut elementwise, values.len());
        for v in &values {
            v.put_plain(&mut elementwise);
        }
        assert_eq!(out, elementwise);
        let bits = |v: &[Pair]| v.iter().map(|p| (p.a, p.b.to_bits())).collect::<Vec<_>>();

        let mut r = Reader::new(&out, DecodeOptions::new());
        let back = r.plain_vec(1, |r| Pair::read(r, 1)).unwrap();
        r.finish().unwrap();
        assert_eq!(bits(&back), bits(&values));

        let mut reused = vec![Pair::default(); 10];
        let mut r = Reader::new(&out, DecodeOptions::new());
        r.plain_vec_assign(&mut reused, 1, |r| Pair::read(r, 1))
            .unwrap();
        assert_eq!(bits(&reused), bits(&values));

        let mut fixed = [Pair::default(); 3];
        let mut r = Reader::new(&out[4..], DecodeOptions::new());
        r.plain_array_assign(&mut fixed, 1, |r| Pair::read(r, 1))
            .unwrap();
        assert_eq!(bits(&fixed), bits(&values));
        let arr: [Pair; 3] = Reader::new(&out[4..], DecodeOptions::new())
            .plain_array(1, |r| Pair::read(r, 1))
            .unwrap();
        assert_eq!(bits(&arr), bits(&values));

        // Elements past the depth limit: the element reader's depth error.
        let shallow = DecodeOptions::new().with_max_depth(1);
        let e = Reader::new(&out, shallow)
            .plain_vec(2, |r| Pair::read(r, 2))
            .unwrap_err();
        assert_eq!((e.rule(), e.offset()), ("depth", 4));
        // A [N]T cut short: truncation where the first missing byte is.
        let e = Reader::new(&out[4..20], DecodeOptions::new())
            .plain_array::<Pair, 3>(1, |r| Pair::read(r, 1))
            .unwrap_err();
        assert_eq!((e.rule(), e.offset()), ("truncated", 16));
    }

    #[test]
    fn vec_from_le_keeps_whole_elements_only() {
        // Fewer bytes than n elements: only whole elements are kept.
        let v = <u16 as Scalar>::vec_from_le(&[1, 0, 2], 5);
        assert_eq!(v, vec![1]);
        let v = <i64 as Scalar>::vec_from_le(&[], 3);
        assert!(v.is_empty());
    }

    #[test]
    fn le_slice_views_unaligned_and_aligned_data() {
        let mut buf = vec![0u8; 1];
        put_scalar_array(&mut buf, &[7u32, 8, 9]);
        let mut backing = vec![0u32; 5];
        for offset in 0..4 {
            // Place the 12 bytes at every alignment inside a u32 buffer.
            let bytes: &mut [u8] = bytes_of_mut(&mut backing);
            bytes[offset..offset + 12].copy_from_slice(&buf[1..13]);
            let view = Reader::new(&bytes[offset..offset + 12], DecodeOptions::new())
                .scalars::<u32>(3)
                .unwrap();
            assert_eq!(view.len(), 3);
            assert_eq!(view.get(1), Some(8));
            assert_eq!(view.get(3), None);
            assert_eq!(view.iter().collect::<Vec<_>>(), vec![7, 8, 9]);
            assert_eq!(view.to_vec(), vec![7, 8, 9]);
            match view.as_slice() {
                Some(s) => {
                    assert!(cfg!(target_endian = "little") && offset == 0);
                    assert_eq!(s, &[7, 8, 9]);
                }
                None => assert!(offset != 0 || cfg!(target_endian = "big")),
            }
        }
    }

    fn bytes_of_mut(v: &mut [u32]) -> &mut [u8] {
        let len = ::core::mem::size_of_val(v);
        // SAFETY: test helper; u32 has no padding and any byte is valid.
        unsafe { ::core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len) }
    }

    #[test]
    fn bools_are_validated() {
        let mut r = Reader::new(&[1, 0, 2], DecodeOptions::new());
        let e = r.scalars::<bool>(3).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::InvalidBool(2));
        assert_eq!(e.offset(), 2);
        let s = Reader::new(&[1, 0, 1], DecodeOptions::new())
            .scalars::<bool>(3)
            .unwrap();
        assert_eq!(s.to_vec(), vec![true, false, true]);
        assert_eq!(s.as_slice(), None);
    }

    #[test]
    fn counts_are_checked_before_allocating() {
        let mut r = Reader::new(&[0xff, 0xff, 0xff, 0xff, 0], DecodeOptions::new());
        let e = r.vec(8, |r| r.u64()).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::CountTooLarge(u32::MAX));
        assert_eq!(e.offset(), 0);
        let mut r = Reader::new(&[2, 0, 0, 0, 1, 2, 3], DecodeOptions::new());
        assert!(r.scalar_slice::<u32>().is_err());
    }

    #[test]
    fn memory_is_charged_against_the_limit() {
        assert_eq!(default_memory_limit(10), 320 + (1 << 20));
        let limits = DecodeOptions::new()
            .with_max_depth(3)
            .with_memory_limit(300);
        assert_eq!(
            limits,
            DecodeOptions {
                max_depth: 3,
                memory_limit: 300
            }
        );
        let buf = [3, 0, 0, 0, 0, 0, 0];
        // 3 elements of 100 bytes fill the limit exactly; one byte more fails
        // at the offset of the presence byte just read.
        let mut r = Reader::new(&buf, limits);
        assert_eq!(r.charged_count(1, 100).unwrap(), 3);
        r.charge(0, 100, 0).unwrap();
        let e = r.charge(1, 1, 1).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::MemoryLimitExceeded(300));
        assert_eq!(e.rule(), "memory");
        assert_eq!(e.offset(), 3);
        // Over the limit at the count; the count rule is checked first.
        let mut r = Reader::new(&buf, limits.with_memory_limit(299));
        let e = r.charged_count(1, 100).unwrap_err();
        assert_eq!((e.rule(), e.offset()), ("memory", 0));
        let mut r = Reader::new(&buf, limits.with_memory_limit(1));
        let e = r.charged_count(2, 100).unwrap_err();
        assert_eq!(e.rule(), "count");
        // The default limit counts the input; huge charges do not overflow.
        let mut r = Reader::new(&buf, DecodeOptions::new());
        assert!(r.charge(1, (1 << 20) + 7 * 32, 0).is_ok());
        assert!(r.charge(1, 1, 0).is_err());
        let mut r = Reader::new(&buf, DecodeOptions::new());
        assert!(r.charge(usize::MAX, 1 << 48, 0).is_err());
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    #[should_panic(expected = "exceeds the wire format's u32 limit")]
    fn counts_past_u32_panic_instead_of_truncating() {
        // Every string length and array count is written by put_len.
        put_len(&mut Vec::new(), 1 << 32);
    }

    #[test]
    fn lengths_past_u32_are_encode_errors() {
        assert_eq!(check_len(0), Ok(()));
        assert_eq!(check_len(u32::MAX as usize), Ok(()));
        assert!(fits_u32(u32::MAX as usize));
        #[cfg(target_pointer_width = "64")]
        {
            let e = check_len(1 << 32).unwrap_err();
            assert_eq!(e.length(), 1 << 32);
            assert!(e.to_string().contains("4294967296"), "{e}");
            assert!(!fits_u32(1 << 32));
            let io: io::Error = e.into();
            assert_eq!(io.kind(), io::ErrorKind::InvalidInput);
        }
    }

    #[test]
    fn strings_are_validated() {
        let mut r = Reader::new(&[2, 0, 0, 0, 0xc3, 0x28], DecodeOptions::new());
        let e = r.str().unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::InvalidUtf8);
        assert_eq!(e.offset(), 0);
        for s in [
            "",
            "hi",
            "plain ascii text",
            "h\u{e9}llo",
            "\u{1f600}",
            "\u{7f}\u{80}",
        ] {
            let mut buf = Vec::new();
            put_str(&mut buf, s);
            let mut r = Reader::new(&buf, DecodeOptions::new());
            assert_eq!(r.str().unwrap(), s);
            r.finish().unwrap();
        }
        // Overlong, surrogate, truncated and stray continuation bytes.
        for bad in [
            &[0xc0, 0x80][..],
            &[0xed, 0xa0, 0x80],
            &[0xe2, 0x82],
            &[0x80],
            &[b'a', 0xff],
        ] {
            let mut buf = Vec::new();
            put_bytes(&mut buf, bad);
            let mut r = Reader::new(&buf, DecodeOptions::new());
            assert_eq!(r.str().unwrap_err().kind(), DecodeErrorKind::InvalidUtf8);
        }
    }

    #[test]
    fn strings_of_every_length_take_the_word_paths() {
        for n in 0..80 {
            let ascii: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            // A non-ASCII byte right after the string must not matter.
            let mut buf = Vec::new();
            put_str(&mut buf, &ascii);
            assert_eq!(buf.len(), 4 + n);
            buf.extend_from_slice(&[0xff; 9]);
            let mut r = Reader::new(&buf, DecodeOptions::new());
            assert_eq!(r.str().unwrap(), ascii);
            let mut r = Reader::new(&buf, DecodeOptions::new());
            assert_eq!(r.string().unwrap(), ascii);
            // At the very end of the input too.
            let mut buf = Vec::new();
            put_str(&mut buf, &ascii);
            assert_eq!(
                Reader::new(&buf, DecodeOptions::new()).str().unwrap(),
                ascii
            );
            // A byte with the high bit set at any position is caught.
            for i in 0..n {
                let mut bad = ascii.clone().into_bytes();
                bad[i] = 0xc3;
                let mut buf = Vec::new();
                put_bytes(&mut buf, &bad);
                buf.extend_from_slice(b"zzzzzzzz");
                let e = Reader::new(&buf, DecodeOptions::new()).str().unwrap_err();
                assert_eq!(e.kind(), DecodeErrorKind::InvalidUtf8);
                assert_eq!(e.offset(), 0);
            }
        }
    }

    #[test]
    fn every_scalar_type_roundtrips_through_the_bulk_paths() {
        fn check<T: Scalar>(values: &[T]) {
            let mut out = Vec::new();
            put_scalars(&mut out, values);
            assert_eq!(out.len(), 4 + values.len() * T::SIZE);
            let mut r = Reader::new(&out, DecodeOptions::new());
            let view = r.scalar_slice::<T>().unwrap();
            assert_eq!(view.to_vec(), values);
            assert!(view.iter().eq(values.iter().copied()));
            // The portable element-wise path (used on big-endian hosts)
            // writes the same bytes as the bulk path.
            let mut elementwise = Vec::new();
            for v in view.iter() {
                v.put_le(&mut elementwise);
            }
            assert_eq!(&out[4..], &elementwise[..]);
        }
        check(&[0u8, 1, 255]);
        check(&[0u16, 1, 0xfffe]);
        check(&[i8::MIN, -1, 0, i8::MAX]);
        check(&[i16::MIN, -2, i16::MAX]);
        check(&[i32::MIN, -3, i32::MAX]);
        check(&[i64::MIN, -4, i64::MAX]);
        check(&[u64::MAX, 0, 1 << 40]);
        check(&[true, false, true]);
        check(&[0.5f32, -0.0, f32::MAX]);
        check(&[0.25f64, f64::MIN_POSITIVE, f64::NEG_INFINITY]);
        assert_eq!(
            {
                let mut out = Vec::new();
                put_scalar_array(&mut out, &[0x0102_0304u32]);
                out
            },
            vec![4, 3, 2, 1]
        );
    }

    // Encoded sizes saturate at usize::MAX (rule size), which the fallible
    // encoders refuse after the lengths (rule count) and before a message's
    // payload (rule message). A value that really overflows usize needs a
    // 32-bit host, or more memory than a 64-bit one has: Rust's values own
    // their storage.
    #[test]
    fn sizes_saturate_and_are_refused() {
        assert_eq!(sum_sizes(&[usize::MAX - 1, 5, 7], |&n| n), usize::MAX);
        assert_eq!(sum_sizes(&[1usize, 2, 3], |&n| n), 6);
        assert_eq!(check_size(10, || panic!("walked a small value")), Ok(()));
        let size = check_size(usize::MAX, || Ok(())).unwrap_err();
        assert_eq!((size.rule(), size.path()), ("size", ""));
        assert_eq!(
            size.to_string(),
            "size: the encoding is larger than usize can count"
        );
        let count = check_len(usize::MAX)
            .map_err(in_path("names", &[3]))
            .unwrap_err();
        assert_eq!((count.rule(), count.path()), ("count", "names[3]"));
        assert_eq!(
            check_size(usize::MAX, || Err(count.clone())),
            Err(count.clone())
        );
        assert_eq!(check_payload(usize::MAX, || Err(count.clone())), Err(count));
        assert_eq!(check_payload(usize::MAX, || Ok(())), Err(size));
        assert_eq!(
            check_payload(u32::MAX as usize, || panic!("walked")),
            Ok(())
        );
        if let Ok(over) = usize::try_from(u64::from(u32::MAX) + 1) {
            let e = check_payload(over, || Ok(())).unwrap_err();
            assert_eq!((e.rule(), e.path()), ("message", "message"));
            assert_eq!(check_size(over, || Ok(())), Ok(()));
        }
        assert_eq!(max_size_or_default(0), DEFAULT_MAX_MESSAGE_SIZE);
        assert_eq!(max_size_or_default(5), 5);
    }

    #[test]
    fn errors_say_where() {
        let e = DecodeError::new(DecodeErrorKind::InvalidBool(7), 12)
            .in_field("Inner", |_, p| {
                push_field(p, "flag");
                Some("Inner.flag")
            })
            .in_field("Outer", |_, p| {
                push_field(p, "inner");
                push_index(p, 2);
                Some("Outer.inner")
            });
        assert_eq!(e.path(), "inner[2].flag");
        assert_eq!(e.field(), Some("Inner.flag"));
        assert_eq!(e.within(), Some("Inner"));
        assert_eq!(
            e.to_string(),
            "bool at offset 12 in inner[2].flag: invalid bool byte 0x07"
        );
        let e = DecodeError::new(DecodeErrorKind::UnknownEnumValue(9), 3)
            .inside("Level")
            .in_field("Reading", |_, _| Some("Reading.level"));
        assert_eq!(e.to_string(), "enum at offset 3: unknown enum value 9");
    }

    #[test]
    fn list_views_reread_what_they_validated() {
        let words = ["plain", "h\u{e9}llo", "", "\u{1f600}!"];
        let mut buf = Vec::new();
        put_len(&mut buf, words.len());
        for w in words {
            put_str(&mut buf, w);
        }
        buf.push(7);
        let mut r = Reader::new(&buf, DecodeOptions::new());
        let list = r.list_of(4, 1, elem_str()).unwrap();
        assert_eq!(r.u8().unwrap(), 7);
        assert_eq!(list.iter().collect::<Vec<_>>(), words);
        assert_eq!(list.get(3), Some("\u{1f600}!"));
        assert_eq!(list.get(4), None);
        // Invalid UTF-8 is caught by the validating pass.
        let mut bad = buf.clone();
        bad[9] = 0xff;
        let mut r = Reader::new(&bad, DecodeOptions::new());
        assert!(r.list_of(4, 1, elem_str()).is_err());
        // Fixed-size elements are found by index.
        let mut buf = Vec::new();
        put_len(&mut buf, 3);
        put_scalar_array(&mut buf, &[1u8, 2, 3, 4, 5, 6]);
        let mut r = Reader::new(&buf, DecodeOptions::new());
        let list = r.list_of(2, 1, elem_byte_array::<2>()).unwrap();
        r.finish().unwrap();
        assert_eq!(list.get(2), Some(&[5, 6]));
        assert_eq!(list.get(3), None);
        let words: Vec<[u8; 2]> = list.iter().copied().collect();
        assert_eq!(words, vec![[1, 2], [3, 4], [5, 6]]);
    }

    #[test]
    fn messages_are_framed() {
        let mut out = Vec::new();
        put_message_header(&mut out, 7, 2);
        out.extend_from_slice(&[1, 2]);
        assert_eq!(split_message(&out).unwrap(), (7, &[1u8, 2][..]));
        let mut buf = Vec::new();
        let mut pos = StreamPosition::default();
        let known = |id| id == 7;
        let mut stream = &out[..];
        assert_eq!(
            read_frame(&mut stream, &mut buf, 2, known, &[], false, &mut pos).unwrap(),
            Some(7)
        );
        assert_eq!(buf, vec![1, 2]);
        pos.advance();
        assert!(
            read_frame(&mut stream, &mut buf, 2, known, &[], false, &mut pos)
                .unwrap()
                .is_none()
        );
        let mut stream = &out[..];
        let mut pos = StreamPosition::default();
        match read_frame(&mut stream, &mut buf, 1, known, &[], false, &mut pos) {
            Err(StreamError::Decode(e)) => {
                assert!(matches!(e.kind(), DecodeErrorKind::MessageTooLarge { .. }));
                assert_eq!((e.message_index(), e.offset()), (Some(0), 6));
            }
            other => panic!("unexpected {other:?}"),
        }
        // The reader is inside the message: every further read reports the
        // same error (docs/wire-format.md, "Streams").
        match read_frame(&mut stream, &mut buf, 1, known, &[], false, &mut pos) {
            Err(StreamError::Decode(e)) => {
                assert!(matches!(e.kind(), DecodeErrorKind::MessageTooLarge { .. }));
                assert_eq!(
                    (e.message_index(), e.offset(), e.is_skippable()),
                    (Some(0), 6, false)
                );
            }
            other => panic!("unexpected {other:?}"),
        }
        // An unknown type id is skipped: the next message is read.
        let mut two = out.clone();
        two[4] = 8;
        two.extend_from_slice(&out);
        let mut stream = &two[..];
        let mut pos = StreamPosition::default();
        match read_frame(&mut stream, &mut buf, 2, known, &[], false, &mut pos) {
            Err(StreamError::Decode(e)) => {
                assert_eq!(
                    (e.rule(), e.message_index(), e.offset()),
                    ("message", Some(0), 4)
                );
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(
            read_frame(&mut stream, &mut buf, 2, known, &[], false, &mut pos).unwrap(),
            Some(7)
        );
        let e = pos.reject(DecodeError::new(DecodeErrorKind::InvalidBool(2), 11));
        assert_eq!(
            e.to_string(),
            "message 1 at stream offset 12: bool at offset 11: invalid bool byte 0x02"
        );
        match e {
            StreamError::Decode(e) => assert_eq!(e.offset(), 12 + 11),
            other => panic!("unexpected {other}"),
        }
        assert!(split_message(&out[..11]).is_err());
        assert!(split_message(b"SDP3").is_err());
    }

    #[test]
    fn hellos_are_checked() {
        const ENTRIES: &[HelloEntry] = &[
            HelloEntry {
                type_id: 1,
                fingerprint: 0x0123_4567_89ab_cdef,
                name: "A",
            },
            HelloEntry {
                type_id: 7,
                fingerprint: 7,
                name: "B",
            },
        ];
        let mut hello = Vec::new();
        put_hello(&mut hello, &ENTRIES[..1]);
        // The check value of docs/wire-format.md.
        let want =
            b"SDP2\x00\x00\x0e\x00\x00\x00\x01\x00\x00\x00\x01\x00\xef\xcd\xab\x89\x67\x45\x23\x01";
        assert_eq!(hello, want);
        let payload = |h: &[u8]| h[MESSAGE_HEADER_SIZE..].to_vec();
        assert_eq!(check_hello(ENTRIES, &payload(&hello)), Ok(()));
        let rule_at = |p: &[u8]| check_hello(ENTRIES, p).map_err(|e| (e.rule(), e.offset()));
        // Lengths: under 4, or not 4 + 10 N.
        assert_eq!(rule_at(&[1, 0]), Err(("message", 6)));
        assert_eq!(rule_at(&[1, 0, 0, 0]), Err(("message", 6)));
        assert_eq!(rule_at(&[0, 0, 0, 0, 0]), Err(("message", 6)));
        assert_eq!(rule_at(&[0xff; 4]), Err(("message", 6)));
        // Type ids: not 0, strictly increasing; unknown ones are ignored.
        let mut all = Vec::new();
        put_hello(&mut all, ENTRIES);
        let mut p = payload(&all);
        assert_eq!(rule_at(&p), Ok(()));
        p[14] = 1; // entry 1's type id: 1 again
        assert_eq!(rule_at(&p), Err(("message", 24)));
        p[4] = 0;
        assert_eq!(rule_at(&p), Err(("message", 14)));
        let mut other = Vec::new();
        put_hello(
            &mut other,
            &[HelloEntry {
                type_id: 3,
                fingerprint: 3,
                name: "C",
            }],
        );
        assert_eq!(rule_at(&payload(&other)), Ok(()));
        // Another fingerprint for a struct of the schema: rule schema.
        let mut p = payload(&all);
        p[16] ^= 0x80;
        let e = check_hello(ENTRIES, &p).unwrap_err();
        assert_eq!(
            (e.rule(), e.offset(), e.within()),
            ("schema", 26, Some("B"))
        );
        let text = e.kind().to_string();
        assert!(
            text.contains("0000000000000087, here 0000000000000007"),
            "{text}"
        );
    }
}
