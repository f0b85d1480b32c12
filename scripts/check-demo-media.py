#!/usr/bin/env python3
"""Checks the demo site's media (examples/demo) without building it.

    python3 scripts/check-demo-media.py [SITE_DIR]

Every article has a cover (`image:` a file under static/ or an https URL) with a non-empty
`image_alt:` and, when set, an `image_focus:` of the form "X% Y%"; every `audio:` is an .m4a,
.mp3, .opus or .ogg file of the site, at most 500 KB, 60 to 120 s long when it is an .m4a; author
photos exist and have `photo_alt` (and the first three authors have none); the photographs under static/images/photos/ are JPEGs at most
1600 px wide with no EXIF/XMP block, together under 4 MB, each used and named in CREDITS.md;
`::youtube`/`::vimeo`/`::audio` lines have a title and an id/src. Prints one line per problem
(file: message) and exits 1 if there is any. Standard library only.
"""
import os
import re
import struct
import sys
import tomllib

MAX_AUDIO = 500 * 1024
MAX_PHOTOS = 4 * 1024 * 1024
AUDIO_EXT = (".m4a", ".mp3", ".opus", ".ogg")
FOCUS = re.compile(r"^\d{1,3}(\.\d+)?% \d{1,3}(\.\d+)?%$")
DIRECTIVE = re.compile(r"^::(youtube|vimeo|audio)\[([^\]]+)\]\{([^}]*)\}\s*$")


def front_matter(path):
    """The front matter's top-level scalar keys (`key: value`, quotes removed) with their line
    numbers, and the body's (line number, line) pairs."""
    keys = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines[0] != "---":
        return keys, list(enumerate(lines, 1))
    for n, line in enumerate(lines[1:], 2):
        if line == "---":
            return keys, list(enumerate(lines[n:], n + 1))
        m = re.match(r"^([a-z_]+):\s*(.*)$", line)
        if m:
            v = m.group(2)
            if len(v) >= 2 and v[0] == v[-1] == '"':
                v = v[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            keys[m.group(1)] = (v, n)
    return keys, []  # unterminated: no body


def jpeg_info(path):
    """(width, height, [APPn names]) of a baseline or progressive JPEG."""
    with open(path, "rb") as f:
        d = f.read()
    if d[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    i, apps, size = 2, [], None
    while i + 4 <= len(d) and d[i] == 0xFF:
        m = d[i + 1]
        if m == 0xDA:
            break
        n = struct.unpack(">H", d[i + 2:i + 4])[0]
        if 0xE0 <= m <= 0xEF:
            apps.append(d[i + 4:i + 4 + min(n - 2, 12)].split(b"\0")[0].decode("latin1"))
        if m in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", d[i + 5:i + 9])
            size = (w, h)
        i += 2 + n
    if not size:
        raise ValueError("no frame header")
    return size[0], size[1], apps


def mp4_seconds(path):
    """The duration in the movie header (moov/mvhd) of an MP4/M4A file."""
    with open(path, "rb") as f:
        d = f.read()

    def boxes(start, end):
        i = start
        while i + 8 <= end:
            size, kind = struct.unpack(">I4s", d[i:i + 8])
            head = 8
            if size == 1:
                size, head = struct.unpack(">Q", d[i + 8:i + 16])[0], 16
            elif size == 0:
                size = end - i
            if size < head:
                raise ValueError("bad box size")
            yield kind, i + head, i + size
            i += size

    for kind, s, e in boxes(0, len(d)):
        if kind == b"moov":
            for k2, s2, _ in boxes(s, e):
                if k2 == b"mvhd":
                    if d[s2] == 1:
                        scale, dur = struct.unpack(">IQ", d[s2 + 20:s2 + 32])
                    else:
                        scale, dur = struct.unpack(">II", d[s2 + 12:s2 + 20])
                    return dur / scale
    raise ValueError("no moov/mvhd box")


def main():
    site = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "examples", "demo")
    site = os.path.normpath(site)
    static = os.path.join(site, "static")
    photos_dir = os.path.join(static, "images", "photos")
    problems, used = [], set()

    def rel(p):
        return os.path.relpath(p, site)

    def site_file(value, where, kinds):
        """A site path (/x under static/) that must exist; returns its file path."""
        if not value.startswith("/"):
            problems.append(f"{where}: {value!r} is not a site path starting with /")
            return None
        path = os.path.join(static, value.lstrip("/"))
        if not os.path.isfile(path):
            problems.append(f"{where}: {value} does not exist (looked for {rel(path)})")
            return None
        if not value.lower().endswith(kinds):
            problems.append(f"{where}: {value} is not one of {', '.join(kinds)}")
        if os.path.dirname(os.path.abspath(path)) == os.path.abspath(photos_dir):
            used.add(os.path.basename(path))
        return path

    articles = 0
    for dirpath, _, files in sorted(os.walk(os.path.join(site, "articles"))):
        for fn in sorted(files):
            if not fn.endswith(".md"):
                continue
            path = os.path.join(dirpath, fn)
            articles += 1
            fm, body = front_matter(path)
            at = lambda k: f"{rel(path)}:{fm[k][1]}" if k in fm else rel(path)
            if "image" not in fm:
                problems.append(f"{rel(path)}: no image")
            elif not fm["image"][0].startswith("https://"):
                site_file(fm["image"][0], at("image"), (".jpg", ".jpeg", ".png", ".webp", ".gif", ".svg"))
            if not fm.get("image_alt", ("", 0))[0].strip():
                problems.append(f"{at('image')}: no image_alt")
            if "image_focus" in fm and not FOCUS.match(fm["image_focus"][0]):
                problems.append(f"{at('image_focus')}: image_focus {fm['image_focus'][0]!r} is not \"X% Y%\"")
            if "audio" in fm:
                a = site_file(fm["audio"][0], at("audio"), AUDIO_EXT)
                if a:
                    if os.path.getsize(a) > MAX_AUDIO:
                        problems.append(f"{at('audio')}: {rel(a)} is {os.path.getsize(a)} bytes (> {MAX_AUDIO})")
                    if a.endswith(".m4a"):
                        try:
                            s = mp4_seconds(a)
                            if not 60 <= s <= 120:
                                problems.append(f"{at('audio')}: {rel(a)} lasts {s:.1f} s (not 60-120 s)")
                        except (ValueError, struct.error) as e:
                            problems.append(f"{rel(a)}: {e}")
            for n, line in body:
                if line.startswith("::"):
                    m = DIRECTIVE.match(line)
                    attrs = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(3))) if m else {}
                    need = "src" if m and m.group(1) == "audio" else "id"
                    if not m or need not in attrs:
                        problems.append(f"{rel(path)}:{n}: not a valid embed: {line}")
                    elif "poster" in attrs:
                        site_file(attrs["poster"].strip('"'), f"{rel(path)}:{n}", (".jpg", ".jpeg", ".png", ".webp"))

    authors_path = os.path.join(site, "data", "authors.toml")
    with open(authors_path, "rb") as f:
        authors = tomllib.load(f).get("author", [])
    with_photo = 0
    for n, a in enumerate(authors):
        if "photo" in a and n < 3:
            problems.append(f"{rel(authors_path)}: {a['name']}: the first three authors must have no photo "
                            "(crates/fuzz/tests/content.rs copies them into a site without static/)")
        if "photo" in a:
            with_photo += 1
            site_file(a["photo"], f"{rel(authors_path)}: {a['name']}", (".jpg", ".jpeg", ".png", ".webp"))
            if not a.get("photo_alt", "").strip():
                problems.append(f"{rel(authors_path)}: {a['name']}: photo without photo_alt")

    credits_path = os.path.join(photos_dir, "CREDITS.md")
    credits = open(credits_path, encoding="utf-8").read() if os.path.isfile(credits_path) else ""
    if not credits:
        problems.append(f"{rel(credits_path)}: missing")
    total = 0
    photos = sorted(f for f in os.listdir(photos_dir) if f.endswith(".jpg")) if os.path.isdir(photos_dir) else []
    for name in photos:
        p = os.path.join(photos_dir, name)
        total += os.path.getsize(p)
        try:
            w, h, apps = jpeg_info(p)
        except (ValueError, struct.error) as e:
            problems.append(f"{rel(p)}: {e}")
            continue
        if w > 1600:
            problems.append(f"{rel(p)}: {w} px wide (> 1600)")
        for app in apps:
            if app in ("Exif", "http:", "Photoshop 3.0"):
                problems.append(f"{rel(p)}: carries metadata ({app})")
        if f"| {name} |" not in credits:
            problems.append(f"{rel(credits_path)}: {name} is not credited")
        if name not in used:
            problems.append(f"{rel(p)}: not used by any article or author")
    if total > MAX_PHOTOS:
        problems.append(f"{rel(photos_dir)}: {total} bytes of photographs (> {MAX_PHOTOS})")

    for p in problems:
        print(p)
    print(f"{articles} articles, {len(photos)} photographs ({total / 1e6:.2f} MB), "
          f"{with_photo} author photos: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
