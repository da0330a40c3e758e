"""Sound files in pure Python (crazylab.audio) and the piano page's sound and downloads
(issue 19: "the piano page makes no sound and offers no MIDI/WAV")."""

from __future__ import annotations

import ast
import base64
import io
import math
import re
import struct
import wave
from array import array
from pathlib import Path

import pytest

from crazylab.audio import Tone, data_url, midi_file, tones, vlq, wav_file

ROOT = Path(__file__).resolve().parents[1]


# -- reading the files back ------------------------------------------------------------------


def read_vlq(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    while True:
        b = data[i]
        i += 1
        value = (value << 7) | (b & 0x7F)
        if not b & 0x80:
            return value, i


def parse_midi(data: bytes) -> dict:
    """A small MIDI reader: the header, and per track its (tick, status, data) events."""
    assert data[:4] == b"MThd"
    length, fmt, ntracks, division = struct.unpack(">IHHH", data[4:14])
    assert length == 6
    i, tracks = 14, []
    for _ in range(ntracks):
        assert data[i:i + 4] == b"MTrk", data[i:i + 4]
        (size,) = struct.unpack(">I", data[i + 4:i + 8])
        body, i = data[i + 8:i + 8 + size], i + 8 + size
        j, tick, events, status = 0, 0, [], 0
        while j < len(body):
            delta, j = read_vlq(body, j)
            tick += delta
            if body[j] == 0xFF:
                kind = body[j + 1]
                n, j = read_vlq(body, j + 2)
                events.append((tick, 0xFF, kind, body[j:j + n]))
                j += n
                continue
            status = body[j]
            width = 1 if status & 0xF0 in (0xC0, 0xD0) else 2
            events.append((tick, status, *body[j + 1:j + 1 + width]))
            j += 1 + width
        assert events[-1][1:3] == (0xFF, 0x2F), "every track ends with end-of-track"
        tracks.append(events)
    assert i == len(data), "nothing after the last track"
    return {"format": fmt, "division": division, "tracks": tracks}


def note_ons(parsed: dict) -> list[tuple[int, int]]:
    return [(e[0], e[2]) for t in parsed["tracks"] for e in t
            if e[1] & 0xF0 == 0x90 and e[3] > 0]


def read_wav(data: bytes) -> tuple[wave.Wave_read, array]:
    with wave.open(io.BytesIO(data), "rb") as w:
        frames = array("h", w.readframes(w.getnframes()))
    return w, frames  # its parameters stay readable after closing


# -- MIDI ------------------------------------------------------------------------------------


def test_vlq_is_the_midi_variable_length_quantity():
    assert vlq(0) == b"\x00" and vlq(0x7F) == b"\x7f"
    assert vlq(0x80) == b"\x81\x00" and vlq(0x3FFF) == b"\xff\x7f"
    assert vlq(0x0FFFFFFF) == b"\xff\xff\xff\x7f"
    with pytest.raises(ValueError):
        vlq(-1)


def test_midi_file_parses_with_the_right_notes_tempo_and_instrument():
    data = midi_file(tones([60, 64, 67, 72]), tempo=100, program=73, ticks_per_beat=480)
    parsed = parse_midi(data)
    assert parsed["format"] == 0 and parsed["division"] == 480 and len(parsed["tracks"]) == 1
    assert note_ons(parsed) == [(0, 60), (480, 64), (960, 67), (1440, 72)]
    events = parsed["tracks"][0]
    offs = [(e[0], e[2]) for e in events if e[1] & 0xF0 == 0x80]
    assert offs == [(480, 60), (960, 64), (1440, 67), (1920, 72)]
    tempo = next(e[3] for e in events if e[1] == 0xFF and e[2] == 0x51)
    assert int.from_bytes(tempo, "big") == 600_000  # 100 beats a minute
    assert any(e[1] == 0xC0 and e[2] == 73 for e in events)  # the flute


def test_midi_and_wav_refuse_what_they_cannot_write():
    with pytest.raises(ValueError):
        Tone(128, 0)
    with pytest.raises(ValueError):
        Tone(60, 0, 0)
    with pytest.raises(ValueError):
        midi_file(tones([60]), tempo=0)
    with pytest.raises(ValueError):
        wav_file(tones([60]), rate=100)


# -- WAV -------------------------------------------------------------------------------------


def test_wav_file_parses_with_the_right_rate_length_and_sound():
    data = wav_file(tones([69, 72]), tempo=120, rate=8000)  # two beats of half a second
    w, frames = read_wav(data)
    assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 8000)
    assert w.getnframes() == 8000 and len(frames) == 8000  # 1.0 s
    assert max(abs(x) for x in frames) > 8000  # loud enough to hear
    assert frames[-1] == 0 and abs(frames[0]) < 100  # no click at either end
    first = frames[400:2400]  # the first note: A4, 440 Hz
    crossings = sum(1 for a, b in zip(first, first[1:], strict=False) if a < 0 <= b)
    assert abs(crossings / (len(first) / 8000) - 440) < 25


def test_wav_of_nothing_is_an_empty_valid_file():
    w, frames = read_wav(wav_file([], rate=8000))
    assert w.getnframes() == 0 and len(frames) == 0


def test_data_url_round_trips():
    url = data_url(b"MThd\x00", "audio/midi")
    assert url.startswith("data:audio/midi;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == b"MThd\x00"


def test_the_audio_module_imports_nothing_from_jupyter():
    tree = ast.parse((ROOT / "crazylab" / "audio.py").read_text())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
             for a in n.names}
    names |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
              if isinstance(n, ast.ImportFrom) and not n.level}
    assert not names & {"IPython", "ipywidgets", "anywidget", "traitlets", "numpy"}, names


def test_a_game_melody_still_writes_its_midi_with_the_shared_writer():
    from crazylab import Game
    from crazylab.music import melody

    tune = melody(Game.new("crazy-8s-level-3", 2, seed=4).play_random(3))
    parsed = parse_midi(tune.midi())
    pitched = [n.midi for n in tune.notes if n.pc is not None]
    assert [k for _, k in note_ons(parsed) if k in pitched] == pitched


# -- the piano page --------------------------------------------------------------------------


def _explorer(*args, **kwargs):
    pytest.importorskip("anywidget")
    from crazylab.widgets.music import IntervalExplorer

    return IntervalExplorer(*args, **kwargs)


def _links(ex) -> dict[str, bytes]:
    found = re.findall(r"download='([^']+)' href='data:([^;]+);base64,([^']+)'",
                       ex.downloads.value)
    return {name: base64.b64decode(b64) for name, _mime, b64 in found}


def test_the_piano_offers_the_keys_that_fit_as_midi_and_wav_before_any_click():
    ex = _explorer("crazy-8s-level-3", top="3D")  # C: the thirds E♭ E A♭ A fit
    links = _links(ex)
    assert set(links) == {"crazylab-level-3-fits.mid", "crazylab-level-3-fits.wav"}
    keys = [k for _, k in note_ons(parse_midi(links["crazylab-level-3-fits.mid"]))]
    assert keys[0] == 60 and sorted(k % 12 for k in keys[1:]) == [3, 4, 8, 9]
    w, frames = read_wav(links["crazylab-level-3-fits.wav"])
    beat = 60 / 176  # level 3's tempo
    assert w.getframerate() == 11025
    assert math.isclose(w.getnframes() / 11025, len(keys) * beat, rel_tol=0.01)
    assert max(abs(x) for x in frames) > 5000
    assert "Download MIDI" in ex.downloads.value and "Download WAV" in ex.downloads.value


def test_clicked_keys_make_the_tune_to_download_and_can_be_cleared():
    ex = _explorer("crazy-8s-level-2", top="3D")
    ex.click_key("C#")
    ex.click_key("B")
    ex.click_key("C#")  # the same key again is a note again
    assert ex.tune_keys()[-3:] == ex.piano.played == [61, 59, 61]
    links = _links(ex)
    assert [k for _, k in note_ons(parse_midi(links["crazylab-level-2-tune.mid"]))] == \
        [61, 59, 61]
    assert "Your tune" in ex.downloads.value and not ex.clear_button.disabled
    ex.clear_button.click()
    assert ex.piano.played == [] and "fits.mid" in ex.downloads.value


def test_a_click_reported_by_the_browser_is_a_note_of_the_tune():
    ex = _explorer("crazy-8s-level-4", top="3C")
    ex.piano._on_msg(ex.piano, {"event": "play", "midi": 62}, [])
    ex.piano._on_msg(ex.piano, {"event": "play", "midi": 999}, [])  # not a key: ignored
    assert ex.piano.played == [62] and "(D)" in ex.downloads.value


def test_piano_js_plays_a_note_with_web_audio_and_reports_the_click():
    js = (ROOT / "crazylab" / "widgets" / "piano.js").read_text()
    assert "AudioContext" in js and "createOscillator" in js
    assert 'model.send({ event: "play", midi })' in js
    assert "fetch(" not in js and "http" not in js  # no samples, no network


def test_notes_that_overlap_are_mixed_below_full_scale():
    chord = [Tone(60, 0, 2, 127), Tone(64, 0, 2, 127), Tone(67, 0.5, 1.5, 127)]
    w, frames = read_wav(wav_file(chord, tempo=120, rate=8000))
    assert w.getnframes() == 8000  # two beats at 120 a minute
    loudest = max(abs(x) for x in frames)
    assert 20000 < loudest <= 0.95 * 32767 + 1  # summed, then scaled below clipping
    alone = read_wav(wav_file(chord[:1], tempo=120, rate=8000))[1]
    assert alone != frames  # the chord is not one note


def test_a_tune_sounds_the_same_note_the_same_way_wherever_it_is():
    _, frames = read_wav(wav_file(tones([69, 72, 69]), tempo=120, rate=8000))
    beat = 4000
    assert frames[:beat] == frames[2 * beat:3 * beat]
