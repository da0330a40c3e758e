"""Sound files from notes, in pure Python: a tiny standard MIDI file writer and a WAV
synthesiser (the standard library's ``wave``, ``math`` and ``array``; no numpy, no sound
fonts, no network, nothing from Jupyter).

A note is a :class:`Tone`: a MIDI key (60 = middle C), when it starts and how long it lasts
(in beats), and how hard it is struck. :func:`midi_file` writes them as a one-track standard
MIDI file (format 0); :func:`wav_file` plays them on a soft electric-piano voice into a 16-bit
mono WAV file. :func:`tones` turns a list of keys into notes one beat apart; :func:`data_url`
makes a ``data:`` link a browser can download without a server.

>>> from crazylab.audio import midi_file, tones, wav_file
>>> notes = tones([60, 64, 67])
>>> midi_file(notes)[:4], wav_file(notes, rate=8000)[:4]
(b'MThd', b'RIFF')

:class:`crazylab.music.Melody` (the music of a whole game, with a style per level) uses the
same MIDI building blocks (:func:`vlq`, :func:`meta`, :func:`track`).
"""

from __future__ import annotations

import base64
import io
import math
import struct
import sys
import wave
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

MIDI_MIME = "audio/midi"
WAV_MIME = "audio/wav"


@dataclass(frozen=True)
class Tone:
    """One note: ``key`` is the MIDI key number (0-127, 69 = A4 = 440 Hz); ``start`` and
    ``length`` are in beats; ``velocity`` 1-127."""

    key: int
    start: float
    length: float = 1.0
    velocity: int = 96

    def __post_init__(self) -> None:
        if not 0 <= self.key <= 127:
            raise ValueError(f"a MIDI key is 0-127, not {self.key}")
        if not 1 <= self.velocity <= 127:
            raise ValueError(f"a velocity is 1-127, not {self.velocity}")
        if self.start < 0 or self.length <= 0:
            raise ValueError("a note starts at 0 beats or later and lasts more than 0 beats")


def tones(keys: Iterable[int], beats: float = 1.0, velocity: int = 96) -> list[Tone]:
    """The keys played one after another, each ``beats`` long."""
    return [Tone(k, i * beats, beats, velocity) for i, k in enumerate(keys)]


def frequency(key: float) -> float:
    """Equal temperament, A4 (key 69) = 440 Hz."""
    return 440.0 * 2.0 ** ((key - 69) / 12)


# -- MIDI --------------------------------------------------------------------------------------


def vlq(value: int) -> bytes:
    """A MIDI variable-length quantity (7 bits a byte, high bit set on all but the last)."""
    if value < 0:
        raise ValueError("a MIDI delta time is never negative")
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def meta(delta: int, kind: int, payload: bytes) -> bytes:
    """A meta event (``FF kind length payload``) after ``delta`` ticks."""
    return vlq(delta) + bytes([0xFF, kind]) + vlq(len(payload)) + payload


def track(events: Sequence[tuple[int, bytes]], head: bytes = b"") -> bytes:
    """A track body from events at absolute ticks (note-offs before note-ons at the same
    tick), after ``head`` (events at tick 0 already encoded), ending with end-of-track."""
    ordered = sorted(events, key=lambda e: (e[0], e[1][0] & 0xF0 == 0x90))
    body = bytearray(head)
    now = 0
    for tick, data in ordered:
        body += vlq(tick - now) + data
        now = tick
    body += meta(0, 0x2F, b"")
    return bytes(body)


def chunk(kind: bytes, body: bytes) -> bytes:
    """A MIDI chunk: four letters, the body's length (big-endian), the body."""
    return kind + struct.pack(">I", len(body)) + body


def midi_file(notes: Sequence[Tone], *, tempo: int = 120, program: int = 0,
              ticks_per_beat: int = 480, title: str = "crazylab", channel: int = 0) -> bytes:
    """A standard MIDI file, format 0 (one track): the title, the tempo, the instrument
    (General MIDI ``program``, 0 = acoustic grand piano), then a note-on and a note-off per
    note."""
    if not 20 <= tempo <= 400:
        raise ValueError(f"tempo must be 20-400 beats per minute, not {tempo}")
    if not (0 <= program <= 127 and 0 <= channel <= 15):
        raise ValueError("program is 0-127 and channel 0-15")
    head = (meta(0, 0x03, title.encode("utf-8")[:120])
            + meta(0, 0x51, round(60_000_000 / tempo).to_bytes(3, "big"))
            + meta(0, 0x58, bytes([4, 2, 24, 8]))
            + vlq(0) + bytes([0xC0 | channel, program]))
    events: list[tuple[int, bytes]] = []
    for n in notes:
        on = round(n.start * ticks_per_beat)
        off = on + max(1, round(n.length * ticks_per_beat))
        events.append((on, bytes([0x90 | channel, n.key, n.velocity])))
        events.append((off, bytes([0x80 | channel, n.key, 0])))
    header = struct.pack(">HHH", 0, 1, ticks_per_beat)
    return chunk(b"MThd", header) + chunk(b"MTrk", track(events, head))


# -- WAV ---------------------------------------------------------------------------------------

#: the voice: partials (frequency ratio, amplitude), attack (s) and decay (per s)
PARTIALS = ((1.0, 1.0), (2.0, 0.35), (3.0, 0.12), (4.0, 0.05))
ATTACK, DECAY, RELEASE = 0.008, 3.0, 0.03


@lru_cache(maxsize=256)
def voice(key: int, seconds: float, rate: int) -> tuple[float, ...]:
    """One note's samples (-1 … 1): additive partials under a quick attack, an exponential
    decay and a short release, so notes laid end to end never click. Cached: a tune made one
    click at a time synthesises each new note once."""
    n = max(1, round(seconds * rate))
    f = frequency(key)
    parts = [(r, a) for r, a in PARTIALS if f * r < rate / 2] or [(1.0, 1.0)]
    norm = 1.0 / sum(a for _, a in parts)
    step = 2 * math.pi * f / rate
    attack = max(1, int(ATTACK * rate))
    release = max(1, min(n // 4, int(RELEASE * rate)))
    fall = math.exp(-DECAY / rate)
    out = [0.0] * n
    env = 1.0
    sin = math.sin
    for i in range(n):
        phase = step * i
        x = sum(a * sin(r * phase) for r, a in parts) * norm
        e = env
        if i < attack:
            e *= i / attack
        if i >= n - release:
            e *= (n - i) / release
        out[i] = x * e
        env *= fall
    return tuple(out)


#: the loudness of a note struck at full velocity (1 = full scale)
GAIN = 0.6


@lru_cache(maxsize=256)
def _pcm(key: int, seconds: float, rate: int, velocity: int) -> array:
    """A note's 16-bit samples at its velocity (cached, like :func:`voice`)."""
    gain = GAIN * velocity / 127 * 32767
    return array("h", [int(gain * x) for x in voice(key, seconds, rate)])


def wav_file(notes: Sequence[Tone], *, tempo: int = 120, rate: int = 22050,
             legato: float = 0.9) -> bytes:
    """The notes synthesised into a 16-bit mono PCM WAV file. Its length is the end of the
    last note (``start + length`` beats at ``tempo``); each note sounds ``legato`` of its
    length. Overlapping notes are mixed (and kept below full scale)."""
    if rate < 4000:
        raise ValueError(f"rate must be at least 4000 samples per second, not {rate}")
    if not 20 <= tempo <= 400:
        raise ValueError(f"tempo must be 20-400 beats per minute, not {tempo}")
    spb = 60.0 / tempo
    end = max((n.start + n.length for n in notes), default=0.0)
    total = round(end * spb * rate)
    placed = sorted(((round(n.start * spb * rate), n) for n in notes), key=lambda p: p[0])
    lengths = [len(voice(n.key, n.length * legato * spb, rate)) for _, n in placed]
    if all(first + size <= nxt for (first, _), size, (nxt, _) in
           zip(placed, lengths, placed[1:], strict=False)):
        # one note after another (the usual tune): lay their cached samples end to end
        frames = array("h")
        for first, n in placed:
            pcm = _pcm(n.key, n.length * legato * spb, rate, n.velocity)
            if len(frames) < first:
                frames.extend(array("h", bytes(2 * (first - len(frames)))))
            frames.extend(pcm[:max(0, total - len(frames))])
        frames.extend(array("h", bytes(2 * max(0, total - len(frames)))))
    else:  # overlapping notes: mix them, below full scale
        mix = [0.0] * total
        for first, n in placed:
            sound = voice(n.key, n.length * legato * spb, rate)[:max(0, total - first)]
            gain = GAIN * n.velocity / 127
            end_at = first + len(sound)
            mix[first:end_at] = [m + gain * x for m, x in zip(mix[first:end_at], sound,
                                                               strict=True)]
        peak = max(max(mix, default=0.0), -min(mix, default=0.0))
        scale = 32767 * (0.95 / peak if peak > 0.95 else 1.0)
        frames = array("h", [int(x * scale) for x in mix])
    if sys.byteorder == "big":  # WAV is little-endian
        frames.byteswap()
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames.tobytes())
    return buffer.getvalue()


def data_url(data: bytes, mime: str) -> str:
    """A ``data:`` URL of ``data`` (a link a browser downloads without asking a server)."""
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


__all__ = ["MIDI_MIME", "WAV_MIME", "Tone", "chunk", "data_url", "frequency", "meta",
           "midi_file", "tones", "track", "vlq", "voice", "wav_file"]
