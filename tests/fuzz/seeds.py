#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/corpus/<harness>/: typical
inputs, and one regression input per defect of issue 15 (files named
regress-*). The harnesses read binary inputs (fuzz.h's fuzz_in); this file
spells out their layout. Run from the repository root; it rewrites only
the files it names."""
import os
import struct

EDGES = [0, 1, -1, 2, -2, 3, 7, 8, -8, 16, 64, 255, 2**31 - 1, -2**31, 2**31, 2**32, 2**62, -2**62, 2**62 + 2,
         2**63 - 1, -2**63, 2**63 - 2, -2**63 + 1, (2**63 - 1) // 2, (2**63 - 1) // 8 + 1, 2**62 + 1]
AXIS_EDGES = [-2**31, 2**31 - 1, -2**31 + 1, 2**31 - 2, 32, -32, 33, -33, 2**30, -2**30]
DTYPES = {'uint8': 0, 'int16': 1, 'float32': 2, 'float64': 3, 'complex128': 4}


def int64(v):
    """fuzz_int64: small values directly, edge values by their table index, others as 8 bytes."""
    if -4 <= v < 12:
        return bytes([v + 4])
    if v in EDGES:
        i = EDGES.index(v)
        return bytes([next(s for s in range(128, 224) if s % len(EDGES) == i)])
    return bytes([255]) + struct.pack('>q', v)


def axis(v):
    """fuzz_axis."""
    if -6 <= v < 6:
        return bytes([v + 6])
    i = AXIS_EDGES.index(v)
    return bytes([next(s for s in range(200, 256) if s % len(AXIS_EDGES) == i)])


def array(dtype, shape):
    """fuzz_array with a plain C-contiguous layout (dims 0..6)."""
    return bytes([DTYPES[dtype], len(shape)] + list(shape) + [0])


def write(harness, name, data):
    d = os.path.join('tests', 'fuzz', 'corpus', harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# index_text: byte 0 even, a layout, the text; or byte 0 odd and one slice:
# n, stride, sign, three parts (a selector each, see slice_part), two colons.
def text(name, arr, t):
    write('index_text', name, b'\x00' + arr + t.encode())


v5 = array('float64', [5])
for i, t in enumerate(['1:4', '::-1', '..., None', '0', '-1', '-6', 'None, ..., 2:', '1,', '::0', '1:2:3:4', 'x',
                       '-99999999999999999999:', '99999999999999999999', ':, newaxis', '']):
    text('text-%02d' % i, v5, t)
text('text-3d', array('float32', [3, 4, 2]), '0, ..., ::2')
text('text-3d-too-many', array('float32', [3, 4, 2]), '0, 0, 0, 0')
# ga_index(a, ":, None * 32") on a 1-d array asked for 33 dims and wrote past the layout
text('regress-heap-33-dims', v5, ':, ' + ', '.join(['None'] * 32))
text('regress-heap-33-dims-ellipsis', array('uint8', [2, 3]), '1:, ..., ' + ', '.join(['None'] * 31))
# a[::-9223372036854775808] was a[:] (the step read as "omitted")
text('text-int64-min-step', array('float64', [6]), '::-9223372036854775808')
text('text-int64-min-start', array('float64', [6]), '-9223372036854775808::-1')
OMIT, N, MINUS_N, N1, MINUS_N1, MIN, MAX, BELOW, ABOVE = 0, 1, 2, 3, 4, 5, 6, 7, 8
ONE, MINUS_ONE = (15, 1), (15, -1)  # selector 15: an int64 follows


def slice_seed(name, parts):
    body = b''
    for p in parts:
        body += bytes([p[0]]) + int64(p[1]) if isinstance(p, tuple) else bytes([p])
    write('index_text', name, bytes([1, 8, 0, 0]) + body + b'\x01')


# INT64_MIN written as a bound or a step read as "omitted" (GA_NONE); numbers
# beyond int64 were not an index (Python clamps them)
slice_seed('regress-slice-min-step', (OMIT, OMIT, MIN))
slice_seed('regress-slice-min-start', (MIN, OMIT, MINUS_ONE))
slice_seed('regress-slice-min-stop', (OMIT, MIN, ONE))
slice_seed('regress-slice-beyond-int64', (BELOW, ABOVE, OMIT))
slice_seed('regress-slice-max-start-min-step', (MAX, OMIT, MIN))
slice_seed('regress-slice-step-below-int64', (OMIT, OMIT, BELOW))
slice_seed('slice-n-plus-one', (N1, MINUS_N1, MINUS_ONE))

# as_strided: a layout, ndim, a check byte, per dim (shape selector, value;
# stride selector, value), the offset selector and value.
def strided(name, arr, dims, offset=(0, 4)):
    b = arr + bytes([len(dims), 0])
    for shape, stride in dims:
        b += (bytes([0, shape]) if 0 <= shape < 6 else bytes([200]) + int64(shape))
        b += bytes([200]) + int64(stride)
    b += bytes(offset)
    write('as_strided', name, b)


strided('plain', array('float64', [6]), [(3, 16)])
strided('transposed', array('float32', [2, 3]), [(3, 4), (2, 12)])
strided('empty-any-strides', array('uint8', [4]), [(0, 2**63 - 1), (3, -2**63)])
strided('outside', array('int16', [5]), [(5, 4)])
# 5 elements 2^62 bytes apart: the span 4 * 2^62 wrapped to 0 and passed
strided('regress-stride-2-62', array('float64', [6]), [(5, 2**62)])
# 3 elements INT64_MIN bytes apart: the span 2 * INT64_MIN wrapped to 0
strided('regress-stride-int64-min', array('float64', [6]), [(3, -2**63)])
strided('regress-offset-overflow', array('float64', [6]), [(1, 8)], offset=(200,) + tuple(int64(2**63 - 8)))

# reshape: a layout, ndim, a check byte, per dim a selector (<160: small,
# <200: -1, <208: a's size, else an int64).
def reshape(name, arr, dims):
    b = arr + bytes([len(dims), 0])
    for v in dims:
        b += bytes([v]) if 0 <= v < 7 else bytes([160]) if v == -1 else bytes([208]) + int64(v)
    write('reshape', name, b)


reshape('plain', array('float32', [3, 4]), [2, 6])
reshape('unknown', array('float32', [3, 4]), [-1, 3])
reshape('two-unknown', array('float32', [3, 4]), [-1, -1])
reshape('mismatch', array('uint8', [5]), [2, 3])
reshape('empty-huge', array('uint8', [0]), [0, 2**62, 2**62])
# 4 elements into (4, 2^62 + 1): the product 2^64 + 4 wrapped to 4 and matched
reshape('regress-size-overflow', array('uint8', [4]), [4, 2**62 + 1])
reshape('regress-size-overflow-unknown', array('uint8', [4]), [-1, 2**62 + 1, 4])

# broadcast: mode (even: broadcast_to), a layout, ndim, a check byte, per
# dim a selector (<96: a's dim, <200: small, else an int64); odd mode: two
# or three layouts.
def bto(name, arr, dims):
    b = b'\x00' + arr + bytes([len(dims), 0])
    for v in dims:
        b += bytes([96 + v]) if 0 <= v < 6 else bytes([200]) + int64(v)
    write('broadcast', name, b)


bto('plain', array('float32', [1, 3]), [4, 1, 3])
bto('mismatch', array('float32', [2, 3]), [4, 3])
bto('negative', array('float32', [1]), [-1])
# (1,) to (2^62,) float64: 2^65 bytes; ga_nbytes was 0
bto('regress-too-big', array('float64', [1]), [2**62])
bto('too-big-2d', array('uint8', [1, 1]), [2**31, 2**32])
write('broadcast', 'arrays', b'\x01' + array('float32', [3, 1]) + array('int16', [4]) + b'\x00')
write('broadcast', 'arrays-mismatch', b'\x01' + array('float32', [3, 2]) + array('int16', [4]) + b'\x00')

# views: op, a layout, naxes, a check byte, naxes pairs of axes, then the op's own bytes.
def views(name, op, arr, pairs=(), tail=b''):
    b = bytes([op]) + arr + bytes([len(pairs), 0])
    for x, y in pairs:
        b += axis(x) + axis(y)
    write('views', name, b + tail)


a34 = array('float32', [3, 4])
views('rot90', 0, a34, tail=b'\x00\x05' + axis(0) + axis(1))
views('swapaxes', 1, a34, tail=axis(0) + axis(-1))
views('moveaxis', 2, a34, [(0, 1)], tail=b'\x00')
views('expand_dims', 4, a34, [(0, 0), (-1, 0)], tail=b'\x00')
views('squeeze', 5, array('float32', [1, 4, 1]), [(0, 0)])
views('diagonal', 7, a34, tail=int64(1) + axis(0) + axis(1))
views('split', 8, array('float32', [6, 2]), tail=axis(0) + b'\x00\x03')
views('split-at', 10, array('float32', [6, 2]), tail=axis(0) + b'\x00\x00\x02' + int64(-2**63) + int64(2))
# rot90 with axis INT_MIN: axis2 - axis1 overflowed int
views('regress-rot90-int-min', 0, a34, tail=b'\x00\x05' + axis(-2**31) + axis(0))
views('regress-rot90-int-max', 0, a34, tail=b'\x00\x05' + axis(2**31 - 1) + axis(-1))
# expand_dims by INT_MAX axes: a->ndim + naxes overflowed
views('regress-expand-dims-int-max', 4, a34, tail=b'\xff' + axis(2**31 - 1))
# a unit axis of stride INT64_MIN flipped (the stride negated), one of
# INT64_MAX on a diagonal (the strides summed)
views('regress-flip-int64-min-stride', 6, bytes([DTYPES['float64'], 1, 3, 16, 0]) + int64(-2**63))
views('regress-diagonal-int64-max-stride', 7, bytes([DTYPES['float64'], 1, 3, 16, 0]) + int64(2**63 - 1),
      tail=int64(0) + axis(0) + axis(1))

# memory: 8 bytes of device size, then GPUARR_MEMORY_LIMIT's text (the pool
# part reads its size from the same bytes).
def memory(name, total, t):
    write('memory', name, struct.pack('>Q', total) + t.encode())


for i, t in enumerate(['1073741824', '1G', '1024m', '50%', '4GiB', '2TB', '1.5G', 'lots', '5X', '', '-1G', 'nan',
                       'inf', '1e400', '12 ']):
    memory('limit-%02d' % i, 8 << 30, t)
# a huge value times the suffix: the double's conversion to size_t was undefined;
# the device size's low bits make the pool's size SIZE_MAX - (2^20 - 1): its
# chunk size wrapped to 0
memory('regress-huge-limit', (4 << 32) | 0xFFFFF, '99999999999999999999G')
memory('regress-huge-percent', 2**64 - 1, '1e30%')

# dtype: the whole input is the name, and (read again) two dtypes and kinds.
for i, t in enumerate(['float32', 'int64', 'bool', 'bfloat16', 'complex128', 'float128', 'Float32', 'float32\x00x',
                       '\xff\xff', '']):
    write('dtype', 'name-%02d' % i, t.encode('latin-1'))

# advanced_index: a layout, n, a check byte, the items (kind selector and
# values), then a count byte per index array.
def adv(name, arr, items, counts=b''):
    b = arr + (bytes([len(items), 0]) if len(items) < 7 else bytes([0, 255, len(items)]))
    for kind, *vals in items:
        b += bytes([kind]) + b''.join(vals)
    write('advanced_index', name, b + counts)


def idx_array(dtype, shape, device=0):
    return (4, bytes([0 if dtype == 'int64' else 120, len(shape)] + list(shape) + [7 if device else 0]))


a345 = array('float32', [3, 4, 5])
adv('one-array', a345, [idx_array('int64', [2])])
adv('two-arrays-apart', a345, [idx_array('int64', [2]), (1, b'\x00', b'\x00', b'\x01'), idx_array('int64', [2])])
adv('bool-mask', a345, [idx_array('bool', [3, 4])], counts=b'\x05')
adv('bool-0d', a345, [idx_array('bool', []), (2,)])
adv('mismatch', a345, [idx_array('int64', [2]), idx_array('int64', [3])])
adv('other-device', a345, [idx_array('int64', [2], device=1)])
adv('basic-only', a345, [(0, b'\x05'), (3,), (1, b'\x00', b'\x00', b'\x01')])
# one index array and 32 new axes over a 1-d array: 33 dims, past the layout's arrays
adv('regress-33-dims', array('float32', [2]), [idx_array('int64', [2])] + [(2,)] * 32)
adv('too-many-dims', array('float32', [2]), [idx_array('int64', [2])] + [(2,)] * 63)


# einsum: byte 0 the operands less one, then each operand's dims (a count,
# then each extent below 250 as itself modulo 6), then the subscripts text.
def einsum(name, shapes, subs):
    b = bytes([len(shapes) - 1])
    for s in shapes:
        b += bytes([len(s)] + list(s))
    write('einsum', name, b + subs.encode())


einsum('matmul', [(2, 3), (3, 4)], 'ij,jk->ik')
einsum('implicit', [(2, 3), (3, 4)], 'ij,jk')
einsum('trace', [(3, 3)], 'ii')
einsum('diagonal', [(3, 3)], 'ii->i')
einsum('ellipsis', [(5, 2, 3), (3, 4)], '...ij,jk->...ik')
einsum('broadcast', [(1,), (3,)], 'i,i->i')
einsum('three', [(2, 3), (3, 4), (4, 5)], 'ij,jk,kl->il')
einsum('spaces', [(2, 3), (3, 4)], ' i j , j k -> i k ')
einsum('mismatch', [(2, 3), (4, 4)], 'ij,jk->ik')
einsum('bad-dots', [(2, 3)], 'i.j')
einsum('bad-arrow', [(2, 3)], 'ij-->ji')
einsum('collapse', [(2, 3)], 'ii')


# text_file: a mode byte (even: read, odd: write), a dtype byte (text_file.c's
# text_dtypes), a count byte (128 and above: -1); then a separator (read) or a
# format (write), a NUL, and the text to read or the elements' bytes.
def text_file(name, write_mode, dtype, count, first, second):
    write('text_file', name, bytes([write_mode, dtype, count]) + first + b'\x00' + second)


text_file('read-ints', 0, 3, 128, b' ', b'1 -2 +3 99999999999999999999 0x10')
text_file('read-floats', 0, 12, 128, b', ', b'1.5, nan, -Infinity ,1e , .5, 5.')
text_file('read-complex', 0, 14, 3, b',', b'1+2j,3j , 4-nanj,1+2')
text_file('read-blanks', 0, 11, 128, b' \t\n ', b'  1\n\n2\t3  ')
text_file('read-long-number', 0, 12, 128, b' ', b'1' + b'0' * 130 + b' 2')
text_file('write-floats', 1, 12, 128, b'%#10.3g|', struct.pack('<4f', 999.6, float('nan'), -0.0, 1e-5))
text_file('write-int-flags', 1, 4, 128, b'[%-+#012.5x]', struct.pack('<3q', -255, 0, 2**63 - 1))
text_file('write-char', 1, 3, 128, b'%5c', struct.pack('<3i', 65, 200, -1))
text_file('write-bad', 1, 12, 128, b'%d %q', struct.pack('<d', 1.5))
