"""The music you make: every game of the musical Crazy 8s is a melody.

:func:`melody` reads a game's events and returns a :class:`Melody`: one note per card played,
in order. A pitched card sounds its pitch class (MU-D3); a wild that announced a pitch sounds
the announced pitch; a wild with nothing to sound (an eight or joker of the main game, whose
calls are suits, or a last card played without a call) is a percussion hit. Each level has a
:class:`Style`, its character (tempo, octave, timbre, the way the line moves), so a learner
hears the difference: Level 1's flowing melodies, Level 2's sneaky action music, Level 3's
wacky arpeggios, Level 4's mysterious whole-tone scales and Level 5's leaps and appoggiaturas.

Audio is synthesised here with the standard library only (``wave``, ``math``, ``array``): no
numpy, no sound fonts, no network. :meth:`Melody.wav` gives a WAV file, :meth:`Melody.midi` a
standard MIDI file (written by hand, format 1), and :meth:`Melody.audio` an
``IPython.display.Audio`` player for a notebook.

>>> from crazylab import Game
>>> game = Game.new("crazy-8s-level-1", 2, seed=1).play_random(1)
>>> tune = melody(game)
>>> len(tune.notes) == sum(e.kind == "played" for e in game.events)
True
"""

from __future__ import annotations

import io
import math
import struct
import sys
import wave
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .audio import meta, track
from .engine.cards import Card
from .engine.events import CALLED, DREW, PLAYED, Event
from .engine.pitch import (
    LETTER_PITCH,
    card_pitch_name,
    describe_interval,
    frequency,
    midi_note,
    parse_pitch,
)
from .engine.rules import RuleSet
from .engine.rules import rules as get_rules

if TYPE_CHECKING:
    from .engine.game import Game

# -- the levels and their characters ---------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How a level sounds. ``contour`` picks each note's octave: ``nearest`` (smooth steps),
    ``up`` (always climbing, wrapping down when too high), ``bounce`` (sweeping up and down
    like an arpeggio) or ``leap`` (the farther of the two ways, so fifths jump). ``legato`` is
    the part of a beat a note sounds; ``appoggiatura`` slides each note in from a semitone
    above."""

    character: str
    tempo: int  # beats per minute
    octave: int  # the middle of the range (scientific octave, C4 = middle C)
    timbre: str  # a name in TIMBRES
    program: int  # General MIDI program number (0 = acoustic grand piano)
    contour: str = "nearest"
    legato: float = 0.9
    appoggiatura: bool = False
    span: int = 12  # semitones either side of the middle C of ``octave``


@dataclass(frozen=True)
class Level:
    """One musical rule set: its number (0 = the main game), the seed's names for it, and
    its sound."""

    number: int
    rules: str
    difficulty: str
    title: str
    promise: str  # the seed's "Your party is going to generate …"
    style: Style


LEVELS: dict[str, Level] = {
    level.rules: level
    for level in (
        Level(0, "crazy-8s-music", "Main game", "Match suit or musical pitch",
              "a tune of repeated notes and suit runs",
              Style("a steady piano tune, with a clap for each 8 and a cymbal for each joker",
                    tempo=112, octave=4, timbre="piano", program=0)),
        Level(1, "crazy-8s-level-1", "Easy",
              "Picnicking on a Rolling Hill with a Happy Puppy",
              "some flowing melodies",
              Style("flowing melodies: a soft flute, legato, stepping along the scale",
                    tempo=100, octave=5, timbre="flute", program=73, legato=1.0)),
        Level(2, "crazy-8s-level-2", "Hard",
              "Tiptoeing Through a Mansion with Creaky Stairways",
              "some sneaky action music",
              Style("sneaky action music: low, short, creeping clarinet semitones, one pile in "
                    "each ear", tempo=138, octave=3, timbre="clarinet", program=71,
                    legato=0.45)),
        Level(3, "crazy-8s-level-3", "Crazy",
              "Jet Skiing on a Single Ski Made of Rock, Because You Like Skipping Rocks",
              "some wacky arpeggios",
              Style("wacky arpeggios: a fast marimba bouncing up and down in thirds",
                    tempo=176, octave=4, timbre="marimba", program=12, contour="bounce",
                    legato=0.8, span=14)),
        Level(4, "crazy-8s-level-4", "Epic",
              "Mountain Climbing Under Water, with Starfish, at Night",
              "mysterious scales, where the home note is nowhere, and everywhere",
              Style("mysterious whole-tone scales: slow bells that only climb, four piles "
                    "spread across the room", tempo=72, octave=5, timbre="bell", program=14,
                    contour="up", legato=1.0)),
        Level(5, "crazy-8s-level-5", "Legendary",
              "Tightrope Walking Across an Enormous Clock that is Covered in String, Strung "
              "Across the Face of the Clock in a Star Pattern, for Some Reason",
              "a melodic-leap-and-appoggiatura overload sensation",
              Style("leaps and appoggiaturas: brass jumping by fourths and fifths, every note "
                    "sliding in from a semitone above", tempo=120, octave=4, timbre="brass",
                    program=61, contour="leap", legato=0.85, appoggiatura=True, span=14)),
    )
}

#: the drum keys (General MIDI channel 10) of unpitched wilds
CLAP, CRASH = 39, 49


def level_of(rules: RuleSet | str) -> Level:
    """The :class:`Level` of a musical rule set (presets with options changed keep their
    level); a custom interval rule set sounds like the main game."""
    r = get_rules(rules) if isinstance(rules, str) else rules
    if r.name in LEVELS:
        return LEVELS[r.name]
    if r.matching not in ("suit_pitch", "letter_step", "interval"):
        raise ValueError(f"{r.name} is not a musical rule set: its cards have no pitches")
    return LEVELS["crazy-8s-music"]


# -- the melody of a game --------------------------------------------------------------------


@dataclass(frozen=True)
class Note:
    """One card played. ``pc`` is the pitch class heard (``None`` for a percussion hit);
    ``midi`` is the key (a drum key when unpitched); times are in beats."""

    index: int
    seat: int | None
    card: Card
    pile: int | None
    pc: int | None
    called: bool  # a wild sounding the pitch its player announced
    midi: int
    voice: int  # a pile in multi-pile levels, else 0
    start: float
    length: float
    velocity: int

    @property
    def name(self) -> str:
        """``E``, ``F♯``; an unpitched wild is shown as its card (``8♣``)."""
        if self.pc is None:
            return self.card.display
        return card_pitch_name(self.pc, None if self.called else self.card)


@dataclass
class Melody:
    """The notes of a game, in the order the cards were played, with its level's style."""

    level: Level
    notes: tuple[Note, ...]
    beats: float  # the length in beats (the last note included)
    piles: int = 1

    @property
    def style(self) -> Style:
        return self.level.style

    @property
    def seconds_per_beat(self) -> float:
        return 60.0 / self.style.tempo

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.beats * self.seconds_per_beat

    @property
    def pitch_classes(self) -> list[int | None]:
        return [n.pc for n in self.notes]

    def names(self) -> list[str]:
        return [n.name for n in self.notes]

    def steps(self) -> list[str]:
        """The interval from each pitched note to the next one of the same voice, in words."""
        out: list[str] = []
        last: dict[int, Note] = {}  # voice → its last pitched note
        for n in self.notes:
            if n.pc is None:
                continue
            before = last.get(n.voice)
            if before is not None and before.pc is not None:
                out.append(f"{before.name} → {n.name}: "
                           f"{describe_interval(n.pc - before.pc)}")
            last[n.voice] = n
        return out

    def describe(self, limit: int = 24) -> str:
        """A few lines for a learner: the level, its sound, and the first notes."""
        shown = " ".join(self.names()[:limit]) + (" …" if len(self.notes) > limit else "")
        return (f"Level {self.level.number} ({self.level.difficulty}): {self.level.title}\n"
                f"Sound: {self.style.character}\n"
                f"{len(self.notes)} notes, {self.duration:.1f} s at {self.style.tempo} beats "
                f"per minute\nNotes: {shown}")

    def __repr__(self) -> str:
        return (f"<Melody level {self.level.number}: {len(self.notes)} notes, "
                f"{self.duration:.1f} s>")

    def head(self, count: int) -> Melody:
        """The first ``count`` notes only (a short clip for a notebook)."""
        notes = self.notes[:count]
        beats = max((n.start + n.length for n in notes), default=0.0)
        return Melody(self.level, notes, beats, self.piles)

    # -- audio ---------------------------------------------------------------------------

    def wav(self, path: str | Path | None = None, *, rate: int = 22050,
            stereo: bool = True) -> bytes:
        """The melody as a 16-bit PCM WAV file (bytes, also written to ``path`` if given)."""
        if rate < 4000:
            raise ValueError(f"rate must be at least 4000 samples per second, not {rate}")
        channels = 2 if stereo else 1
        frames = array("h")
        spb = self.seconds_per_beat
        for n in self.notes:
            start = round(n.start * spb * rate)
            if len(frames) < start * channels:  # a rest
                frames.extend(array("h", bytes(2 * (start * channels - len(frames)))))
            slot = round((n.start + n.length) * spb * rate) - start
            sound = max(1, round(n.length * self.style.legato * spb * rate))
            glide = self.style.appoggiatura and n.pc is not None
            chunk = _note_frames(n.midi, n.pc is None, sound, self.style.timbre, n.velocity,
                                 glide, rate, _pan(n, self.piles) if stereo else None)
            frames.extend(chunk[:slot * channels])
            frames.extend(array("h", bytes(2 * channels * max(0, slot - sound))))
        total = round(self.beats * spb * rate) * channels
        if len(frames) < total:
            frames.extend(array("h", bytes(2 * (total - len(frames)))))
        del frames[total:]
        if sys.byteorder == "big":  # WAV is little-endian
            frames.byteswap()
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as out:
            out.setnchannels(channels)
            out.setsampwidth(2)
            out.setframerate(rate)
            out.writeframes(frames.tobytes())
        data = buffer.getvalue()
        if path is not None:
            Path(path).write_bytes(data)
        return data

    def midi(self, path: str | Path | None = None, *, ticks_per_beat: int = 480) -> bytes:
        """The melody as a standard MIDI file, format 1: a tempo track, then one track per
        voice (pile) and a drum track for unpitched wilds. One note-on per card played."""
        tempo_track = bytearray()
        tempo_track += meta(0, 0x03, self.level.title.encode("utf-8")[:120])
        tempo_track += meta(0, 0x51, round(60_000_000 / self.style.tempo).to_bytes(3, "big"))
        tempo_track += meta(0, 0x58, bytes([4, 2, 24, 8]))
        tempo_track += meta(0, 0x2F, b"")
        tracks = [bytes(tempo_track)]
        voices = sorted({n.voice for n in self.notes if n.pc is not None})
        for voice in voices:
            ch = voice % 9  # channels 0-8 (9 is the drum channel)
            head = [(0, bytes([0xC0 | ch, self.style.program])),
                    (0, bytes([0xB0 | ch, 10, _midi_pan(voice, self.piles)]))]
            events: list[tuple[int, bytes]] = []
            for n in self.notes:
                if n.pc is None or n.voice != voice:
                    continue
                on = round(n.start * ticks_per_beat)
                off = on + max(1, round(n.length * self.style.legato * ticks_per_beat))
                if self.style.appoggiatura:  # slide in from a semitone above (bend ±2)
                    events.append((on, bytes([0xE0 | ch, 0x00, 0x60])))
                    events.append((on + max(1, (off - on) // 5), bytes([0xE0 | ch, 0x00, 0x40])))
                events.append((on, bytes([0x90 | ch, n.midi, n.velocity])))
                events.append((off, bytes([0x80 | ch, n.midi, 0])))
            tracks.append(track(head + events))
        drums = [n for n in self.notes if n.pc is None]
        if drums:
            events = []
            for n in drums:
                on = round(n.start * ticks_per_beat)
                events.append((on, bytes([0x99, n.midi, n.velocity])))
                events.append((on + max(1, ticks_per_beat // 4), bytes([0x89, n.midi, 0])))
            tracks.append(track(events))
        header = b"MThd" + struct.pack(">IHHH", 6, 1, len(tracks), ticks_per_beat)
        data = header + b"".join(b"MTrk" + struct.pack(">I", len(t)) + t for t in tracks)
        if path is not None:
            Path(path).write_bytes(data)
        return data

    def audio(self, *, rate: int = 11025, stereo: bool = False, max_notes: int | None = 48
              ) -> Any:
        """An ``IPython.display.Audio`` player of the melody (mono 11 kHz by default, and at
        most ``max_notes`` notes, to keep notebooks small)."""
        from IPython.display import Audio  # lazy: the engine needs no IPython

        clip = self if max_notes is None else self.head(max_notes)
        return Audio(data=clip.wav(rate=rate, stereo=stereo), rate=rate)

    def _repr_html_(self) -> str:
        import html

        lines = html.escape(self.describe()).replace("\n", "<br>")
        return f"<div class='crazylab-melody'>{lines}</div>"


def melody(game: Game | Iterable[Event], rules: RuleSet | str | None = None) -> Melody:
    """The melody of a game: one :class:`Note` per card played, read from ``game.events``
    (or from an event list, with ``rules``)."""
    if rules is None:
        r: RuleSet = game.rules  # type: ignore[union-attr]
        events: Sequence[Event] = list(game.events)  # type: ignore[union-attr]
    else:
        r = get_rules(rules) if isinstance(rules, str) else rules
        events = list(game.events) if hasattr(game, "events") else list(game)  # type: ignore
    level = level_of(r)
    style = level.style
    notes: list[Note] = []
    last: dict[int, int] = {}  # voice → last MIDI key
    going_up: dict[int, bool] = {}
    beat = 0.0
    for i, e in enumerate(events):
        if e.kind == DREW and not e.penalty and notes:
            beat += 0.5  # a player who draws instead of playing: a breath
            continue
        if e.kind != PLAYED:
            continue
        follow = events[i + 1] if i + 1 < len(events) else None
        call = (follow.call if follow is not None and follow.kind == CALLED
                and follow.seat == e.seat else None)
        for k, c in enumerate(e.cards):
            pc, called = _sounding(r, c, call if k == len(e.cards) - 1 else None)
            voice = (e.pile or 0) if r.piles > 1 else 0
            if pc is None:
                key = CRASH if c.is_joker else CLAP
                velocity = 100
            else:
                key = _place_in_range(pc, last.get(voice), going_up, voice, style)
                last[voice] = key
                velocity = 112 if called else 88 + 8 * (len(notes) % 2 == 0)
            notes.append(Note(len(notes), e.seat, c, e.pile, pc, called, key, voice, beat,
                              1.0, velocity))
            beat += 1.0
    return Melody(level, tuple(notes), beat, r.piles)


def _sounding(r: RuleSet, c: Card, call: str | None) -> tuple[int | None, bool]:
    """The pitch class a played card sounds, and whether it is an announced one."""
    pc = r.pitches.pitch(c)
    if pc is not None:
        return pc, False
    if call is None or r.call_kind == "suit":
        return None, False
    if r.call_kind == "letter":
        return LETTER_PITCH[call.upper()], True
    return parse_pitch(call), True


def _place_in_range(pc: int, previous: int | None, going_up: dict[int, bool], voice: int,
                    style: Style) -> int:
    """Choose the octave of ``pc`` by the style's contour."""
    middle = midi_note(0, style.octave)
    low, high = middle - style.span, middle + style.span
    options = [k for k in range(low, high + 1) if k % 12 == pc % 12]
    if previous is None:
        return min(options, key=lambda k: abs(k - middle - 4))
    by_distance = sorted(options, key=lambda k: (abs(k - previous), k))
    if style.contour == "up":
        above = [k for k in options if k > previous]
        return above[0] if above else options[0]
    if style.contour == "bounce":
        up = going_up.get(voice, True)
        ahead = [k for k in options if (k > previous if up else k < previous)]
        if not ahead:
            going_up[voice] = not up
            ahead = [k for k in options if (k < previous if up else k > previous)]
        if not ahead:
            return by_distance[0]
        return min(ahead, key=lambda k: abs(k - previous))
    if style.contour == "leap":
        near = [k for k in by_distance if k != previous]
        far = [k for k in near if abs(k - previous) > 6]
        return far[0] if far else by_distance[0]
    return by_distance[0]


# -- synthesis -------------------------------------------------------------------------------

#: partials (frequency ratio, amplitude) and envelope (attack s, decay per s) of each timbre
TIMBRES: dict[str, tuple[tuple[tuple[float, float], ...], float, float]] = {
    "piano": (((1, 1.0), (2, 0.45), (3, 0.22), (4, 0.12), (5, 0.05)), 0.004, 3.2),
    "flute": (((1, 1.0), (2, 0.18), (3, 0.06)), 0.06, 0.4),
    "clarinet": (((1, 1.0), (3, 0.45), (5, 0.25), (7, 0.12)), 0.012, 2.0),
    "marimba": (((1, 1.0), (4, 0.35), (9.9, 0.08)), 0.002, 7.0),
    "bell": (((1, 1.0), (2.76, 0.5), (5.4, 0.25), (8.93, 0.12)), 0.003, 1.4),
    "brass": (((1, 1.0), (2, 0.75), (3, 0.55), (4, 0.35), (5, 0.2), (6, 0.1)), 0.035, 1.0),
}


@lru_cache(maxsize=512)
def _note_frames(key: int, drum: bool, sound: int, timbre: str, velocity: int, glide: bool,
                 rate: int, pan: float | None) -> array:
    """The 16-bit samples of one note sounding ``sound`` frames (interleaved stereo if
    ``pan`` is given). Every note fades to silence, so notes are simply laid end to end."""
    mono = _drum(key, sound, rate) if drum else _tone(key, sound, timbre, glide, rate)
    gain = 0.5 * velocity / 127 * 32767
    if pan is None:
        return array("h", [int(gain * x) for x in mono])
    out = array("h", bytes(4 * sound))
    left = math.cos(pan * math.pi / 2) * gain * math.sqrt(2)
    right = math.sin(pan * math.pi / 2) * gain * math.sqrt(2)
    out[0::2] = array("h", [int(left * x) for x in mono])
    out[1::2] = array("h", [int(right * x) for x in mono])
    return out


def _tone(key: int, samples: int, timbre: str, glide: bool, rate: int) -> list[float]:
    """Additive synthesis: the timbre's partials under an attack, an exponential decay and a
    short release; with ``glide``, the first fifth of the note falls from a semitone above."""
    partials, attack, decay = TIMBRES[timbre]
    base = frequency(key)
    top = base * (2 ** (1 / 12) if glide else 1)
    parts = [(r, a) for r, a in partials if top * r < rate / 2] or [(1, 1.0)]
    norm = 1.0 / sum(a for _, a in parts)
    step = 2 * math.pi / rate
    slide = samples // 5 if glide else 0
    phases, phase = [], 0.0
    for i in range(samples):
        f = base * 2 ** ((1 - (i / slide) ** 3) / 12) if i < slide else base
        phase += step * f
        phases.append(phase)
    sin = math.sin
    wave_ = [0.0] * samples
    for r, a in parts:
        a *= norm
        wave_ = [w + a * sin(r * ph) for w, ph in zip(wave_, phases, strict=True)]
    attack_n = max(1, int(attack * rate))
    release_n = max(1, min(samples // 4, int(0.03 * rate)))
    fall = math.exp(-decay / rate)
    env, out = 1.0, wave_
    for i in range(samples):
        e = env
        if i < attack_n:
            e *= i / attack_n
        if i >= samples - release_n:
            e *= (samples - i) / release_n
        out[i] *= e
        env *= fall
    return out


def _drum(key: int, samples: int, rate: int) -> list[float]:
    """A clap (eight) or a cymbal (joker): seeded noise with a fast or slow decay."""
    decay = 28.0 if key == CLAP else 6.0
    x = 0x2545F491 + key
    out = [0.0] * samples
    previous = 0.0
    release_n = max(1, min(samples // 4, int(0.02 * rate)))
    for i in range(samples):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        white = x / 0x3FFFFFFF - 1.0
        bright = white - previous * (0.3 if key == CLAP else 0.9)
        previous = white
        env = math.exp(-decay * i / rate) * 0.7
        if i >= samples - release_n:
            env *= (samples - i) / release_n
        out[i] = max(-1.0, min(1.0, bright * env))
    return out


def _pan(n: Note, piles: int) -> float:
    """0 = left … 1 = right: piles spread across the stereo field, one voice in the middle
    nudged a little by seat."""
    if piles > 1:
        return 0.15 + 0.7 * (n.voice / (piles - 1))
    return 0.5 if n.seat is None else 0.35 + 0.3 * ((n.seat % 4) / 3)


def _midi_pan(voice: int, piles: int) -> int:
    return 64 if piles <= 1 else round(127 * (0.15 + 0.7 * voice / (piles - 1)))


__all__ = ["CLAP", "CRASH", "LEVELS", "TIMBRES", "Level", "Melody", "Note", "Style",
           "level_of", "melody"]
