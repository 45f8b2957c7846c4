#!/usr/bin/env python3
"""Renders the same frames of a ROM in Genesis Plus GX (stable-retro) and in s2lab and compares
their sound: log-spectrogram correlation, RMS level of each (dBFS) and the offset between them
(the lag of the cross-correlation's peak, in samples and milliseconds).

Usage (from the repository root; the ROM and the sound are never written to the repository):

    cargo build --release -p s2lab
    /work/venv-gpgx/bin/python tools/audio-vs-gpgx.py /root/roms/s2-revb.bin \\
        --script ../shared/scripts/boot-to-ehz1.txt --frames 780

Frames: stable-retro runs one frame when it loads the game (its audio is what `get_audio()`
returns before the first `step()`), and its k-th `step()` is frame k+1 with script frame k. So
both sides here render frames 1..N+1 after power-on: Genesis Plus GX as the load frame and N
steps, s2lab with the script shifted by one empty frame (`s2lab run --wav`). Both at Genesis
Plus GX's output rate (44,100 Hz in stable-retro).

Figures:
- offset: the lag (within +-4 frames) maximising the cross-correlation of the two mono
  signals; positive when s2lab's sound comes later than Genesis Plus GX's;
- correlation: Pearson correlation of the two log-power spectrograms (1024-sample Hann
  windows, hop 256, power floored at -100 dB re full scale), as rendered (no alignment), and
  after shifting s2lab by the offset;
- RMS: over both channels and the whole render, in dB re a full-scale square wave (dBFS).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import wave

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpgx"))
from gpgx import button_mask, held_at, load, parse_script  # noqa: E402




def format_script(frames):
    return " ".join("." if not h else h for h in frames) + "\n"


def gpgx_render(rom, inputs, frames):
    emu = load(rom)
    rate = int(round(emu.get_audio_rate()))
    chunks = [emu.get_audio().copy()]  # the frame stable-retro runs on loading
    for f in range(frames):
        emu.set_button_mask(button_mask(held_at(inputs, f)), 0)
        emu.step()
        chunks.append(emu.get_audio().copy())
    return rate, np.concatenate(chunks).astype(np.float64) / 32768.0


def ours_render(binary, rom, inputs, frames, rate, ym2612):
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "input.txt")
        with open(script, "w") as f:
            f.write(format_script([""] + inputs[:frames]))
        out = os.path.join(tmp, "ours.wav")
        subprocess.run([binary, "run", rom, "--frames", str(frames + 1), "--input", script,
                        "--wav", out, "--wav-rate", str(rate), "--ym2612", ym2612], check=True)
        with wave.open(out) as w:
            assert w.getnchannels() == 2 and w.getsampwidth() == 2
            got_rate = w.getframerate()
            data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return got_rate, data.reshape(-1, 2).astype(np.float64) / 32768.0


def rms_dbfs(x):
    # dBFS re a full-scale square wave (RMS 1.0): a full-scale sine reads -3.01.
    return 20 * np.log10(np.sqrt(np.mean(x ** 2)) + 1e-12)


def best_lag(a, b, max_lag):
    """The lag of b against a (b[n] ~ a[n - lag]) maximising their cross-correlation."""
    n = len(a) + len(b)
    size = 1 << (n - 1).bit_length()
    spec = np.fft.rfft(b, size) * np.conj(np.fft.rfft(a, size))
    xc = np.fft.irfft(spec, size)
    lags = np.concatenate([np.arange(0, max_lag + 1), np.arange(-max_lag, 0)])
    vals = np.concatenate([xc[:max_lag + 1], xc[size - max_lag:]])
    return int(lags[np.argmax(vals)])


def log_spectrogram(x, win=1024, hop=256):
    w = np.hanning(win)
    frames = [x[i:i + win] * w for i in range(0, len(x) - win, hop)]
    p = np.abs(np.fft.rfft(np.array(frames), axis=1)) ** 2 / (np.sum(w) ** 2)
    return 10 * np.log10(np.maximum(p, 1e-10))


def spectrogram_correlation(a, b):
    n = min(len(a), len(b))
    sa, sb = log_spectrogram(a[:n]), log_spectrogram(b[:n])
    return float(np.corrcoef(sa.ravel(), sb.ravel())[0, 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rom")
    ap.add_argument("--script", help="input script for pad 1 (default: no input)")
    ap.add_argument("--frames", type=int, default=780)
    ap.add_argument("--ours", default="target/release/s2lab", help="the s2lab binary")
    ap.add_argument("--ym2612", default="integrated", choices=["integrated", "discrete"],
                    help="s2lab's FM chip (`s2lab run --ym2612`)")
    ap.add_argument("--wav-dir", help="also write both renders here as WAV files (not for "
                    "committing: they are the game's sound)")
    args = ap.parse_args()

    inputs = parse_script(open(args.script).read()) if args.script else []
    rate, ref = gpgx_render(args.rom, inputs, args.frames)
    got_rate, ours = ours_render(args.ours, args.rom, inputs, args.frames, rate, args.ym2612)
    if got_rate != rate:
        sys.exit(f"s2lab wrote {got_rate} Hz, asked for {rate}")
    if args.wav_dir:
        for name, x in (("gpgx", ref), ("s2lab", ours)):
            with wave.open(os.path.join(args.wav_dir, f"{name}.wav"), "w") as w:
                w.setnchannels(2)
                w.setsampwidth(2)
                w.setframerate(rate)
                w.writeframes((np.clip(x, -1, 32767 / 32768) * 32768).astype("<i2").tobytes())

    n = min(len(ref), len(ours))
    mono_ref, mono_ours = ref[:n].mean(axis=1), ours[:n].mean(axis=1)
    per_frame = rate / 59.922743
    lag = best_lag(mono_ref, mono_ours, int(4 * per_frame))
    if lag >= 0:
        aligned_ref, aligned_ours = mono_ref[:n - lag], mono_ours[lag:]
    else:
        aligned_ref, aligned_ours = mono_ref[-lag:], mono_ours[:n + lag]

    print(f"frames 1..{args.frames + 1} after power-on, {rate} Hz: Genesis Plus GX "
          f"{len(ref)} samples, s2lab {len(ours)}")
    print(f"correlation (log spectrogram): {spectrogram_correlation(mono_ref, mono_ours):.4f} "
          f"as rendered, {spectrogram_correlation(aligned_ref, aligned_ours):.4f} aligned")
    r_ref, r_ours = rms_dbfs(ref[:n]), rms_dbfs(ours[:n])
    print(f"RMS: Genesis Plus GX {r_ref:.2f} dBFS, s2lab {r_ours:.2f} dBFS "
          f"(s2lab {r_ours - r_ref:+.2f} dB)")
    print(f"offset: {lag:+d} samples ({1000 * lag / rate:+.2f} ms, {lag / per_frame:+.3f} "
          f"frames; positive: s2lab later)")


if __name__ == "__main__":
    main()
