#!/usr/bin/env python3
"""Distinct cover photographs for the benchmark corpus (`gen_corpus.py --images K`).

    python3 bench/corpus_photos.py K DIR [--cache DIR] [--jobs J]   (write photo-00000.jpg… to DIR)

Photograph i (0, 1, 2, …) is derived from one of the calm nature photographs Debian ships in
mate-backgrounds (nature/) and plasma-workspace-wallpapers (the 20 the demo site uses whole, see
examples/demo/static/images/photos/CREDITS.md): source i mod 20, cropped to 16:10 at a zoom
of 1 to 1.6 at a position, maybe mirrored, with its brightness, contrast, saturation and hue
nudged, all drawn from a generator seeded by i alone, then scaled to 1680×1050 and encoded by
ffmpeg as a JPEG (quality ~82, 4:2:0, no metadata): the size and content of a real cover photo
(about 150–600 KB). Photograph i is the same whatever K, so every corpus shares one cache.

Photographs are made once, by ffmpeg (J at a time, one thread each), into a cache directory
(default $XDG_CACHE_HOME/stillpoint-bench/photos or ~/.cache/…; a subdirectory per generator
version and source set), then copied into the corpus: a second corpus with the same or fewer
photographs costs only the copies. Without the Debian packages, the demo's own copies
(1600 px wide, in the repository) are the sources, in a cache of their own.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

VERSION = "v1"  # change when the derivation changes: it names the cache subdirectory
WIDTH, HEIGHT = 1680, 1050
MATE = "/usr/share/backgrounds/mate/nature"
KDE = "/usr/share/wallpapers"
DEMO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "demo", "static",
                    "images", "photos")

# (Debian path, demo copy, alt text): the 20 photographs the demo uses whole.
SOURCES = [
    (f"{MATE}/Aqua.jpg", "water-drop", "A drop of water splashing into still, silver-blue water"),
    (f"{MATE}/Blinds.jpg", "backlit-leaf", "A bright green leaf lit from behind, its veins in fine lines"),
    (f"{MATE}/Dune.jpg", "dune-grass", "Golden dune grass bending in the wind above a blue sea"),
    (f"{MATE}/FreshFlower.jpg", "orange-petals", "Close-up of a vivid orange flower"),
    (f"{MATE}/Garden.jpg", "marigold", "A red and gold marigold against a blurred garden"),
    (f"{MATE}/GreenMeadow.jpg", "young-grass", "A dense carpet of fresh green grass shoots"),
    (f"{MATE}/LadyBird.jpg", "ladybird", "A ladybird on a grass stem among forget-me-nots"),
    (f"{MATE}/RainDrops.jpg", "raindrops-on-leaf", "Raindrops beaded on a broad green leaf"),
    (f"{MATE}/TwoWings.jpg", "dandelion-seeds", "Two dandelion seeds glowing against blurred flowers"),
    (f"{MATE}/Wood.jpg", "weathered-wood", "Pale, weathered wooden floorboards seen close up"),
    (f"{MATE}/YellowFlower.jpg", "yellow-flower", "A yellow flower opening against a dark background"),
    (f"{KDE}/BytheWater/contents/images/2560x1600.jpg", "lakeside-jetty", "The boards of a jetty at the edge of a lake"),
    (f"{KDE}/ColdRipple/contents/images/2560x1600.jpg", "misty-pier", "A wooden pier leading into a lake lost in fog"),
    (f"{KDE}/DarkestHour/contents/images/2560x1600.jpg", "blue-hour-lake", "A still lake at blue hour, misty trees reflected"),
    (f"{KDE}/EveningGlow/contents/images/2560x1600.jpg", "rowing-boats-at-dusk", "Rowing boats on a lake shore at sunset"),
    (f"{KDE}/FallenLeaf/contents/images/2560x1600.jpg", "fallen-leaf", "A brown maple leaf on a bed of autumn leaves"),
    (f"{KDE}/Kite/contents/images/2560x1600.jpg", "kite-in-the-sky", "A rainbow-coloured kite high in a blue sky"),
    (f"{KDE}/OneStandsOut/contents/images/2560x1600.jpg", "moss", "Star-shaped moss shoots, one of them orange"),
    (f"{KDE}/Path/contents/images/2560x1600.jpg", "forest-path", "A narrow path through a dark spruce forest"),
    (f"{KDE}/summer_1am/contents/images/2560x1600.jpg", "midnight-lake", "A calm lake under a violet night sky"),
]


def sources():
    """(tag, [(path, alt)]): the Debian originals when all are installed, else the demo's copies."""
    if all(os.path.isfile(p) for p, _, _ in SOURCES):
        return "debian", [(p, alt) for p, _, alt in SOURCES]
    demo = [(os.path.join(DEMO, name + ".jpg"), alt) for _, name, alt in SOURCES]
    missing = [p for p, _ in demo if not os.path.isfile(p)]
    if missing:
        sys.exit(f"corpus_photos: no source photographs: install mate-backgrounds and "
                 f"plasma-workspace-wallpapers, or restore {missing[0]}")
    return "demo", demo


def default_cache():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "stillpoint-bench", "photos")


def name(i):
    return f"photo-{i:05d}.jpg"


def alt(i, srcs):
    return srcs[i % len(srcs)][1] + (f" (variation {i // len(srcs)})" if i >= len(srcs) else "") + "."


def size_of(path):
    """(width, height) of a JPEG, read from its frame header."""
    with open(path, "rb") as f:
        d = f.read()
    i = 2
    while i + 9 <= len(d) and d[i] == 0xFF:
        m, n = d[i + 1], int.from_bytes(d[i + 2:i + 4], "big")
        if m in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(d[i + 7:i + 9], "big"), int.from_bytes(d[i + 5:i + 7], "big")
        i += 2 + n
    raise ValueError(f"{path}: no JPEG frame header")


def filters(i, w, h):
    """The ffmpeg filter chain of photograph i from a w×h source."""
    r = random.Random(f"stillpoint-photo-{VERSION}-{i}")
    zoom = 1.0 if i < len(SOURCES) else r.uniform(1.0, 1.6)
    cw = min(w, h * 16 / 10) / zoom
    ch = cw * 10 / 16
    cw, ch = int(cw) // 2 * 2, int(ch) // 2 * 2
    x, y = int(r.uniform(0, w - cw)), int(r.uniform(0, h - ch))
    chain = [f"crop={cw}:{ch}:{x}:{y}"]
    if i >= len(SOURCES):
        if r.random() < 0.5:
            chain.append("hflip")
        chain.append(f"eq=brightness={r.uniform(-0.06, 0.06):.3f}:contrast={r.uniform(0.92, 1.08):.3f}"
                     f":saturation={r.uniform(0.85, 1.2):.3f}")
        chain.append(f"hue=h={r.uniform(-8, 8):.2f}")
    chain.append(f"scale={WIDTH}:{HEIGHT}:flags=lanczos")
    return ",".join(chain)


def make(i, srcs, cache):
    """Photograph i in the cache (made if missing); returns its path."""
    out = os.path.join(cache, name(i))
    if os.path.isfile(out):
        return out
    src = srcs[i % len(srcs)][0]
    w, h = size_of(src)
    fd, tmp = tempfile.mkstemp(suffix=".jpg", dir=cache)
    os.close(fd)
    try:
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-threads", "1", "-i", src,
                        "-map_metadata", "-1", "-vf", filters(i, w, h), "-pix_fmt", "yuvj420p",
                        "-q:v", "3", "-frames:v", "1", "-fflags", "+bitexact", "-flags", "+bitexact", tmp], check=True)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return out


def write(k, dest, cache=None, jobs=None):
    """Photographs 0..k-1 into dest (made in the cache when missing); returns their alt texts."""
    if shutil.which("ffmpeg") is None:
        sys.exit("corpus_photos: ffmpeg is needed for --images (apt-get install ffmpeg)")
    tag, srcs = sources()
    cache = os.path.join(cache or default_cache(), f"{VERSION}-{tag}")
    os.makedirs(cache, exist_ok=True)
    os.makedirs(dest, exist_ok=True)
    missing = [i for i in range(k) if not os.path.isfile(os.path.join(cache, name(i)))]
    if missing:
        print(f"making {len(missing)} of {k} photographs in {cache} ({tag} sources)", file=sys.stderr)
        with ThreadPoolExecutor(max_workers=jobs or min(2, os.cpu_count() or 1)) as pool:
            list(pool.map(lambda i: make(i, srcs, cache), missing))
    for i in range(k):
        shutil.copyfile(os.path.join(cache, name(i)), os.path.join(dest, name(i)))
    return [alt(i, srcs) for i in range(k)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("k", type=int)
    ap.add_argument("dir")
    ap.add_argument("--cache", help="cache directory (default: %(default)s)", default=default_cache())
    ap.add_argument("--jobs", type=int, help="ffmpeg processes at once (default: 2 or fewer cores)")
    a = ap.parse_args()
    write(a.k, a.dir, a.cache, a.jobs)


if __name__ == "__main__":
    main()
