#!/usr/bin/env python3
"""Generate a Stillpoint SITE_DIR (the content format of docs/content.md) for benchmarks.

    python3 bench/gen_corpus.py --articles N --out DIR [--seed 1] [--force] [--images K]
    python3 bench/gen_corpus.py --articles N --titles FILE [--seed 1]

With --images K, articles get photographic covers (`image:` and `image_alt:`) drawn from K
distinct photographs (every one used, each by about N/K articles, from a random stream of their
own, so the rest of the site is the same as without --images), written to
static/images/photos/photo-NNNNN.jpg: 1680x1050 JPEGs derived from the photographs of Debian's
mate-backgrounds and plasma-workspace-wallpapers by ffmpeg, made once into a cache shared by
every corpus (bench/corpus_photos.py; --image-cache DIR, --image-jobs J).

With --titles, only the article titles are written (the same titles and slugs the site of that
--articles and --seed has), with the topics they are filed under, for indexing benchmarks
(bench/search-index.sh): a `group` line per `Category -> Subcategory` (labels and hrefs), then
one line per article, oldest first: title, slug and its group numbers, tab-separated.

Standard library only (and ffmpeg for --images); the output is a pure function of (--articles,
--seed, --images).
"""
import argparse
import datetime as _dt
import json
import os
import random
import shutil
import struct
import sys
import time
import zlib

# --------------------------------------------------------------------------
# Topic tree: the spec's 7 category keys/slugs and 5 child keys each (last: other)
# --------------------------------------------------------------------------
TOPICS = [
    ("mindfulnessMeditation", "understanding-mindfulness", "🧘 Mindfulness Meditation",
     "🌿 What mindfulness is, how to practise it and why it works.", [
         ("understandingMindfulness", "understanding-mindfulness-basics", "💡 Understanding Mindfulness",
          "📖 The ideas and science behind present-moment awareness."),
         ("techniquesForMindfulness", "techniques-for-mindfulness", "🛠️ Techniques for Mindfulness",
          "🎯 Practical methods to train attention and acceptance."),
         ("mindfulnessExercises", "mindfulness-exercises", "🏃 Mindfulness Exercises",
          "⏱️ Short exercises you can try today."),
         ("mindfulnessInDailyLife", "mindfulness-in-daily-life", "☕ Mindfulness in Daily Life",
          "🏡 Bringing awareness to meals, chores and conversations."),
         ("other", "other-mindfulness-topics", "✨ Other Mindfulness Topics",
          "🔎 Everything else about mindfulness."),
     ]),
    ("sleepEnhancement", "enhance-sleep-guided-meditation", "😴 Sleep Enhancement",
     "🌙 Guided meditations and habits for deeper, calmer sleep.", [
         ("guidedMeditationForSleep", "guided-meditation-for-sleep", "🛌 Guided Meditation for Sleep",
          "🌌 Meditations recorded and written for bedtime."),
         ("techniquesToImproveSleepQuality", "techniques-to-improve-sleep-quality",
          "📈 Techniques to Improve Sleep Quality", "🕯️ Evidence-based ways to sleep better."),
         ("sleepMeditationScripts", "sleep-meditation-scripts", "📜 Sleep Meditation Scripts",
          "🗒️ Scripts to read aloud or record for yourself."),
         ("sleepHygienePractices", "sleep-hygiene-practices", "🧼 Sleep Hygiene Practices",
          "🛏️ Routines and environments that support rest."),
         ("other", "other-sleep-topics", "✨ Other Sleep Topics", "🔎 Everything else about sleep."),
     ]),
    ("stressReduction", "stress-reduction-techniques", "🌊 Stress Reduction",
     "🍃 Techniques to lower stress and recover balance.", [
         ("guidedMeditationForStressRelief", "guided-meditation-for-stress-relief",
          "🎧 Guided Meditation for Stress Relief", "😌 Meditations that calm a busy nervous system."),
         ("stressManagementTechniques", "stress-management-techniques", "🧰 Stress Management Techniques",
          "📋 Tools for handling pressure at work and at home."),
         ("breathingExercisesForStress", "breathing-exercises-for-stress", "🌬️ Breathing Exercises for Stress",
          "🫁 Breathwork patterns for quick relief."),
         ("creatingASupportiveEnvironment", "creating-a-supportive-environment",
          "🪴 Creating a Supportive Environment", "🏠 Spaces and relationships that reduce stress."),
         ("other", "other-stress-topics", "✨ Other Stress Topics", "🔎 Everything else about stress."),
     ]),
    ("anxietyManagement", "anxiety-management", "🫶 Anxiety Management",
     "🌤️ Understanding anxiety and practices that ease it.", [
         ("guidedMeditationForAnxiety", "guided-meditation-for-anxiety", "🎙️ Guided Meditation for Anxiety",
          "🕊️ Meditations for anxious moments."),
         ("understandingAnxietyTriggers", "understanding-anxiety-triggers", "🧩 Understanding Anxiety Triggers",
          "🔍 Recognising what sets anxiety off."),
         ("anxietyReductionTechniques", "anxiety-reduction-techniques", "📉 Anxiety Reduction Techniques",
          "🧠 Cognitive and somatic tools to reduce anxiety."),
         ("relaxationStrategies", "relaxation-strategies", "🛀 Relaxation Strategies",
          "🌅 Ways to unwind body and mind."),
         ("other", "other", "✨ Other Anxiety Topics", "🔎 Everything else about anxiety."),
     ]),
    ("focusAndProductivity", "focus-and-productivity", "🎯 Focus and Productivity",
     "⚡ Meditation for attention, clarity and sustainable work.", [
         ("meditationForFocus", "meditation-for-focus", "🔦 Meditation for Focus",
          "🧭 Practices that sharpen concentration."),
         ("productivityBoostingTechniques", "productivity-boosting-techniques",
          "🚀 Productivity Boosting Techniques", "⏳ Working well without burning out."),
         ("mindfulnessAtWork", "mindfulness-at-work", "💼 Mindfulness at Work",
          "🖥️ Awareness in meetings, email and deadlines."),
         ("settingHealthyBoundaries", "setting-healthy-boundaries", "🚧 Setting Healthy Boundaries",
          "🤝 Protecting your time and energy."),
         ("other", "other-focus-topics", "✨ Other Focus Topics", "🔎 Everything else about focus."),
     ]),
    ("personalWellnessJourneys", "personal-wellness-journeys", "🌱 Personal Wellness Journeys",
     "🗺️ Real stories and advice from people who practise.", [
         ("successStories", "success-stories", "🏆 Success Stories", "🎉 How meditation changed lives."),
         ("challengesOvercomeThroughMeditation", "challenges-overcome-through-meditation",
          "⛰️ Challenges Overcome Through Meditation", "💪 Difficult seasons and what helped."),
         ("personalTipsAndTechniques", "personal-tips-and-techniques", "📝 Personal Tips and Techniques",
          "🪶 Small habits that practitioners swear by."),
         ("expertInsightsAndAdvice", "expert-insights-and-advice", "🎓 Expert Insights and Advice",
          "🔬 Teachers and clinicians share what they know."),
         ("other", "other-journeys", "✨ Other Journeys", "🔎 Everything else about wellness journeys."),
     ]),
    ("resourcesAndTools", "resources-and-tools", "🧰 Resources and Tools",
     "📚 Apps, books, journals and communities for your practice.", [
         ("meditationAppsAndGuides", "meditation-apps-and-guides", "📱 Meditation Apps and Guides",
          "🔊 Reviews of apps and audio guides."),
         ("journalsForMindfulness", "journals-for-mindfulness", "📓 Journals for Mindfulness",
          "✍️ Journaling prompts and notebooks."),
         ("communitySupportResources", "community-support-resources", "👥 Community Support Resources",
          "🌐 Groups, retreats and support networks."),
         ("booksOnMeditation", "books-on-meditation", "📖 Books on Meditation", "🔖 Reading lists and reviews."),
         ("other", "other-resources", "✨ Other Resources", "🔎 Everything else for your practice."),
     ]),
]

SUBSUB = [
    "body scan", "yoga nidra", "loving kindness", "box breathing", "4-7-8 breathing", "walking meditation",
    "mantra meditation", "visualization", "progressive muscle relaxation", "gratitude practice",
    "mindful eating", "noting practice", "open awareness", "breath counting", "candle gazing",
    "sound bath", "metta", "self-compassion", "grounding", "5-4-3-2-1 technique", "journaling prompts",
    "morning routine", "evening routine", "digital detox", "insomnia", "racing thoughts", "panic attacks",
    "social anxiety", "work stress", "burnout", "deep work", "pomodoro", "time blocking", "saying no",
    "beginners", "parents", "students", "teachers", "nurses", "remote work", "commuting", "travel",
    "chronic pain", "grief", "resilience", "habit building", "vagus nerve", "heart rate variability",
    "cold exposure", "nature", "forest bathing", "music", "binaural beats", "podcasts", "retreats",
    "online courses", "book reviews", "app reviews", "research", "neuroscience",
]

FIRST = ["Maya", "Elena", "Jonah", "Priya", "Tomas", "Aiko", "Grace", "Noah", "Leila", "Samuel",
         "Ingrid", "Rafael", "Hannah", "Kofi", "Clara", "Dev", "Sofia", "Malik", "Yuki", "Nora",
         "Oliver", "Amara", "Lucas", "Freya", "Mateo", "Isla", "Ravi", "Zara", "Felix", "Anika"]
LAST = ["Lindqvist", "Moreau", "Okafor", "Castellanos", "Whitfield", "Nakamura", "Brennan", "Haddad",
        "Sorensen", "Iyer", "Kowalski", "Delacroix", "Ashworth", "Mensah", "Vasquez", "Holm",
        "Fitzgerald", "Tanaka", "Novak", "Abernathy", "Rinaldi", "Bjornsson", "Osei", "Calloway",
        "Petrov", "Marchetti", "Adeyemi", "Lindgren", "Quinn", "Varga"]
ROLES = [
    ("MBSR Teacher", "a certified MBSR teacher", "mindful breathing"),
    ("Clinical Psychologist", "a clinical psychologist", "anxiety and stress"),
    ("Sleep Coach", "a sleep coach", "better sleep"),
    ("Wellness Writer", "a wellness writer", "everyday mindfulness"),
    ("Yoga Teacher", "a yoga and meditation teacher", "yoga nidra and relaxation"),
    ("Executive Coach", "an executive coach", "focus and productivity"),
    ("Meditation Teacher", "a meditation teacher", "guided meditation"),
    ("Therapist", "a licensed therapist", "emotional resilience"),
    ("Journalist", "a health journalist", "the science of meditation"),
    ("Breathwork Facilitator", "a breathwork facilitator", "breathing techniques"),
]
BIO_EXTRA = [
    "{f} has taught workshops in {n} countries and leads a weekly online sitting group.",
    "Before turning to meditation, {f} spent a decade in {job}.",
    "{f} writes about practical, science-informed ways to feel calmer.",
    "{f} lives by the sea with two cats and a growing stack of notebooks.",
    "{f}'s work has appeared in newspapers, podcasts and wellness apps.",
    "{f} believes that five honest minutes beat an hour of forced stillness.",
    "{f} trained in hospital settings and now works with small teams.",
]
JOBS = ["software engineering", "emergency nursing", "marketing", "classroom teaching", "finance",
        "professional dance", "academic research", "journalism"]


def build_authors():
    """58 fixed fictional authors (independent of the seed)."""
    rng = random.Random(58)
    names, seen = [], set()
    i = 0
    while len(names) < 58:
        f = FIRST[i % len(FIRST)]
        l = LAST[(i * 7 + i // len(FIRST)) % len(LAST)]
        i += 1
        if (f, l) in seen:
            continue
        seen.add((f, l))
        names.append((f, l))
    out = []
    for f, l in names:
        role, role_phrase, topic = ROLES[rng.randrange(len(ROLES))]
        k = rng.randint(1, 3)
        extras = [BIO_EXTRA[j].format(f=f, n=rng.randint(3, 19), job=rng.choice(JOBS))
                  for j in rng.sample(range(len(BIO_EXTRA)), k)]
        desc = f"{f} {l} is {role_phrase} who writes about {topic}. " + " ".join(extras)
        out.append({
            "name": f"{f} {l}",
            "description": desc,
            "meta_title": f"{f} {l}, {role}",
            "meta_description": f"Articles on {topic} by {f} {l}.",
        })
    return out


# --------------------------------------------------------------------------
# Text vocabulary
# --------------------------------------------------------------------------
PRACTICES = ["Body Scan", "Breathing Practice", "Loving-Kindness Meditation", "Walking Meditation",
             "Yoga Nidra Session", "Gratitude Practice", "Mantra Meditation", "Visualization",
             "Mindful Pause", "Grounding Exercise", "Journaling Ritual", "Sound Meditation",
             "Self-Compassion Break", "Breath-Counting Drill", "Evening Wind-Down", "Morning Check-In",
             "Progressive Relaxation", "Open-Awareness Sit", "Noting Practice", "Mindful Stretch"]
GOALS = ["Deeper Sleep", "Calmer Mornings", "Less Anxiety", "Sharper Focus", "Busy Parents",
         "Stressful Workdays", "Racing Thoughts", "Better Boundaries", "Long Commutes", "Exam Season",
         "Night Shifts", "Creative Blocks", "Difficult Conversations", "Restless Evenings",
         "Remote Workers", "Beginners", "Sunday Scaries", "Travel Days", "Back-to-Back Meetings",
         "Low-Energy Afternoons", "Holiday Stress", "New Parents", "Grief and Loss", "Chronic Pain"]
ADJS = ["Simple", "Gentle", "Science-Backed", "Surprising", "Practical", "Quiet", "Everyday",
        "Underrated", "Beginner-Friendly", "Five-Minute", "Honest", "Powerful", "Calming", "Tiny"]
NOUNS = ["Habits", "Techniques", "Rituals", "Lessons", "Mistakes", "Questions", "Tools", "Scripts",
         "Tips", "Truths", "Signs", "Shifts"]
VERBS = ["Quiet Your Mind", "Fall Asleep Faster", "Handle Stress", "Stay Present", "Reset Your Day",
         "Calm Anxiety", "Find Focus", "Build a Daily Practice", "Breathe Through Panic",
         "Protect Your Energy", "Let Go of Worry", "Rest Without Guilt", "Start Meditating"]
TOPIC_WORDS = ["Mindfulness", "Meditation", "Breathwork", "Sleep Hygiene", "Stillness", "Attention",
               "Self-Compassion", "Rest", "Gratitude", "Awareness", "Journaling", "Slow Living"]
WHO = ["Teachers", "Nurses", "Students", "Founders", "Parents", "Athletes", "Writers", "Introverts",
       "Night Owls", "Caregivers", "Developers", "Musicians"]
TITLE_PATTERNS = [
    lambda r: f"A {r.choice([3, 5, 7, 10, 12, 15, 20, 30])}-Minute {r.choice(PRACTICES)} for {r.choice(GOALS)}",
    lambda r: f"{r.randint(3, 12)} {r.choice(ADJS)} {r.choice(NOUNS)} to {r.choice(VERBS)}",
    lambda r: f"How to {r.choice(VERBS)} With a {r.choice(PRACTICES)}",
    lambda r: f"Why {r.choice(TOPIC_WORDS)} Matters for {r.choice(WHO)}",
    lambda r: f"The {r.choice(ADJS)} Guide to {r.choice(TOPIC_WORDS)} for {r.choice(GOALS)}",
    lambda r: f"{r.choice(PRACTICES)}: What {r.choice(WHO)} Should Know About {r.choice(GOALS)}",
    lambda r: f"{r.choice(TOPIC_WORDS)} for {r.choice(WHO)}: {r.randint(3, 9)} {r.choice(ADJS)} {r.choice(NOUNS)}",
    lambda r: f"What I Learned From {r.randint(7, 100)} Days of {r.choice(PRACTICES)}",
]

SUBJ = ["Your breath", "A short pause", "Attention", "The nervous system", "A steady routine",
        "Gentle awareness", "This practice", "Research on meditation", "A calm body", "A beginner's practice",
        "The mind", "Noticing sensations", "Regular practice", "A kind inner voice", "Slowing down",
        "Even one minute", "Your environment", "A consistent bedtime", "Curiosity", "Soft focus"]
VERB = ["helps you", "invites you to", "can teach you to", "makes it easier to", "often allows you to",
        "gradually trains you to", "reminds you to", "gives you space to", "lets you", "encourages you to"]
OBJ = ["notice tension before it builds", "return to the present moment", "let thoughts pass like clouds",
       "rest without needing to fix anything", "meet difficult feelings with patience",
       "find a natural rhythm", "separate facts from worries", "soften the shoulders and jaw",
       "fall asleep without a fight", "focus on one thing at a time", "recover after a hard day",
       "listen to what the body needs", "respond instead of react", "feel grounded in your seat",
       "keep going when motivation fades", "treat yourself like a good friend"]
QUAL = ["", "", " throughout the day", " before bed", " during a busy commute", " at your desk",
        " when stress peaks", " without special equipment", " in just a few minutes", " over time",
        " even on difficult days", " with practice"]
OPENERS = ["", "", "", "In practice, ", "For most people, ", "Interestingly, ", "Over a few weeks, ",
           "On busy days, ", "As many teachers point out, ", "Studies suggest that ", "Above all, "]
EMPH = ["the breath is always available", "consistency beats intensity", "nothing needs to be fixed",
        "you can begin again", "small steps add up", "rest is productive", "awareness is a skill",
        "kindness comes first"]
LIST_ITEMS = ["Sit comfortably with a long spine", "Close your eyes or lower your gaze",
              "Take three slow breaths", "Notice the points of contact with the floor",
              "Label thoughts as 'thinking' and return", "Relax the muscles of your face",
              "Count ten breaths, then start over", "Set a gentle timer", "Keep a notebook nearby",
              "Dim the lights an hour before bed", "Silence notifications", "Drink a glass of water",
              "Stretch your neck and shoulders", "Write down one thing you are grateful for",
              "Step outside for fresh air", "Scan the body from head to toe",
              "Breathe in for four, hold for seven, out for eight", "Name five things you can see"]
H2 = ["Why It Works", "Getting Started", "A Step-by-Step Practice", "Common Obstacles",
      "What the Research Says", "Making It a Habit", "Adapting the Practice", "Frequently Asked Questions",
      "When to Practise", "What to Expect", "A Note for Beginners", "Going Deeper", "Key Takeaways"]
H3 = ["Preparing Your Space", "The First Week", "If Your Mind Wanders", "Using a Timer",
      "Short Version", "Longer Version", "For Busy Days", "Tracking Progress", "With a Partner"]
QUOTES = ["Feelings come and go like clouds in a windy sky. Conscious breathing is my anchor.",
          "The present moment is filled with joy and happiness. If you are attentive, you will see it.",
          "You can't stop the waves, but you can learn to surf.",
          "Almost everything will work again if you unplug it for a few minutes, including you.",
          "Rest is not idleness."]


def slugify(s):
    out, dash = [], False
    for ch in s.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def yq(s):
    """YAML double-quoted scalar."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tq(s):
    """TOML basic string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def make_png(size=32):
    """A small valid RGBA PNG: a teal disc on transparent background."""
    raw = bytearray()
    c = (size - 1) / 2
    for y in range(size):
        raw.append(0)
        for x in range(size):
            inside = (x - c) ** 2 + (y - c) ** 2 <= (size / 2 - 1) ** 2
            raw += bytes((32, 150, 140, 255)) if inside else bytes((0, 0, 0, 0))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


class Body:
    """Markdown bodies assembled from pools of pre-built sentences (fast)."""

    def __init__(self, rng):
        self.rng = rng
        pool = []
        for _ in range(4000):
            op = rng.choice(OPENERS)
            subj = rng.choice(SUBJ)
            if op:
                subj = subj[0].lower() + subj[1:]
            sent = f"{op}{subj} {rng.choice(VERB)} {rng.choice(OBJ)}{rng.choice(QUAL)}."
            r = rng.random()
            if r < 0.06:
                sent += f" Remember: **{rng.choice(EMPH)}**."
            elif r < 0.12:
                sent += f" *{rng.choice(EMPH).capitalize()}.*"
            pool.append((sent, len(sent.split())))
        self.pool = pool

    def paragraph(self, slugs, link_p):
        rng = self.rng
        k = rng.randint(3, 6)
        picks = rng.choices(self.pool, k=k)
        text = " ".join(p[0] for p in picks)
        words = sum(p[1] for p in picks)
        if rng.random() < link_p:
            if slugs and rng.random() < 0.7:
                s = slugs[rng.randrange(len(slugs))]
                text += f" See also [{s.replace('-', ' ')}](/articles/{s})."
            else:
                text += " Read more in [this overview](https://en.wikipedia.org/wiki/Mindfulness)."
            words += 4
        return text, words

    def build(self, target, slugs):
        """Sections are added until the body reaches `target` words (counted as whitespace-separated
        tokens of the Markdown); blocks stop as soon as the target is reached, so bodies stay within
        600-1200 words."""
        rng = self.rng
        parts, words = [], 0

        def put(text):
            nonlocal words
            parts.append(text)
            words += len(text.split())

        put(self.paragraph(slugs, 0.3)[0])
        h2s = rng.sample(H2, 6)
        i = 0
        while words < target:
            put("## " + h2s[i % len(h2s)])
            i += 1
            for k in range(rng.randint(1, 3)):
                if k and words >= target:
                    break  # every heading gets at least one paragraph
                put(self.paragraph(slugs, 0.25)[0])
            if words >= target:
                break
            r = rng.random()
            if r < 0.3:
                put("\n".join("- " + it for it in rng.sample(LIST_ITEMS, rng.randint(3, 6))))
            elif r < 0.5:
                put("\n".join(f"{n}. {it}" for n, it in enumerate(rng.sample(LIST_ITEMS, rng.randint(3, 5)), 1)))
            elif r < 0.6:
                put("### " + rng.choice(H3))
                put(self.paragraph(slugs, 0.2)[0])
            elif r < 0.66:
                put("> " + rng.choice(QUOTES))
            elif r < 0.71:
                t = ["| Step | Minutes | Notes |", "|---|---:|---|"]
                for row in rng.sample(LIST_ITEMS, 3):
                    t.append(f"| {row} | {rng.randint(1, 10)} | {rng.choice(EMPH)} |")
                put("\n".join(t))
        return "\n\n".join(parts) + "\n"


def make_titles(rng, n):
    """n titles and their unique slugs (a repeated slug gets `-2`, `-3`…, its title `(Part k)`)."""
    titles, slugs, seen = [], [], {}
    for _ in range(n):
        t = rng.choice(TITLE_PATTERNS)(rng)
        s = slugify(t)
        if s in seen:
            seen[s] += 1
            s2 = f"{s}-{seen[s]}"
            while s2 in seen:
                seen[s] += 1
                s2 = f"{s}-{seen[s]}"
            seen[s2] = 1
            t = f"{t} (Part {seen[s]})"
            s = s2
        else:
            seen[s] = 1
        titles.append(t)
        slugs.append(s)
    return titles, slugs


def write_titles(path, n, seed):
    """The titles of the site of (n, seed), each filed under one to four topics drawn from their
    own generator with the site generator's odds (the site's own draws depend on article bodies)."""
    titles, slugs = make_titles(random.Random(seed), n)
    groups = [(c, ch) for c in TOPICS for ch in c[4]]
    rng = random.Random(seed + 1)
    with open(path, "w") as f:
        for c, ch in groups:
            f.write(f"group\t{c[2]}\t/{c[1]}\t{ch[2]}\t/{c[1]}/{ch[1]}\n")
        for t, s in zip(titles, slugs):
            placed = set()
            for ci in rng.sample(range(len(TOPICS)), 2 if rng.random() < 0.10 else 1):
                kids = len(TOPICS[ci][4])
                for k in rng.sample(range(kids), 2 if rng.random() < 0.12 else 1):
                    placed.add(sum(len(c[4]) for c in TOPICS[:ci]) + k)
            f.write(f"{t}\t{s}\t{','.join(map(str, sorted(placed)))}\n")


def cover_lines(a, out, n):
    """The front matter lines of each article's cover: none without --images; else `image` and
    `image_alt` of one of K photographs (K at most n), each used by n/K articles (rounded), the
    order shuffled by a generator of its own (the site's own draws are untouched)."""
    if not a.images:
        return [[]] * n
    sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
    import corpus_photos  # beside this file; imported only when covers are asked for

    k = min(a.images, n)
    if k < a.images:
        print(f"--images {a.images}: {n} articles use only {k} photographs", file=sys.stderr)
    alts = corpus_photos.write(k, os.path.join(out, "static", "images", "photos"),
                               a.image_cache, a.image_jobs)
    order = [i % k for i in range(n)] if k else []
    random.Random(f"covers-{a.seed}").shuffle(order)
    return [[f"image: /images/photos/{corpus_photos.name(p)}", f"image_alt: {yq(alts[p])}"] for p in order]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, required=True)
    ap.add_argument("--out")
    ap.add_argument("--titles", metavar="FILE", help="write only the titles (see above) to FILE")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true", help="replace DIR if it exists")
    ap.add_argument("--images", type=int, default=0, metavar="K",
                    help="give articles covers drawn from K distinct photographs (default: no covers)")
    ap.add_argument("--image-cache", metavar="DIR", help="where the photographs are made once "
                    "(default: $XDG_CACHE_HOME/stillpoint-bench/photos)")
    ap.add_argument("--image-jobs", type=int, metavar="J", help="ffmpeg processes at once (default: 2)")
    a = ap.parse_args(argv)
    if a.images < 0:
        ap.error("--images must be 0 or more")
    if a.titles:
        return write_titles(a.titles, a.articles, a.seed)
    if not a.out:
        ap.error("--out is required (or --titles FILE)")
    t0 = time.time()
    out = a.out
    if os.path.exists(out) and os.listdir(out):
        if not a.force:
            sys.exit(f"{out} exists and is not empty (use --force)")
        shutil.rmtree(out)
    for d in ("data", "articles", "pages", "static/icons"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    rng = random.Random(a.seed)
    site_id = "stillpoint"

    # stillpoint.toml
    with open(os.path.join(out, "stillpoint.toml"), "w") as f:
        f.write('''[site]
id = "stillpoint"
title = "Stillpoint"
url = "https://stillpoint.example"
description = "Guided meditations and mindfulness articles written by experts."
locale = "en_US"
start_date = "2024-09-12T00:00:00Z"
contact_email = "hello@stillpoint.example"

[site.social]
video = "https://www.youtube.com/@stillpoint"
feed = "https://x.com/stillpoint"
photo = "https://www.instagram.com/stillpoint"

[deploy]
bucket = "stillpoint-site"

[proxy]
allow = ["www.googletagmanager.com"]
''')

    # topics.toml
    lines = ["# Topic tree: order is significant; the last child of every category is `other`.", ""]
    for key, slug, title, desc, children in TOPICS:
        lines += ["[[category]]", f"key = {tq(key)}", f"slug = {tq(slug)}", f"title = {tq(title)}",
                  f"description = {tq(desc)}", ""]
        for ck, cs, ct, cd in children:
            lines += ["  [[category.children]]", f"  key = {tq(ck)}", f"  slug = {tq(cs)}",
                      f"  title = {tq(ct)}", f"  description = {tq(cd)}", ""]
    with open(os.path.join(out, "data", "topics.toml"), "w") as f:
        f.write("\n".join(lines))

    # authors.toml
    authors = build_authors()
    lines = []
    for au in authors:
        lines += ["[[author]]", f"name = {tq(au['name'])}", f"description = {tq(au['description'])}",
                  f"meta_title = {tq(au['meta_title'])}", f"meta_description = {tq(au['meta_description'])}", ""]
    with open(os.path.join(out, "data", "authors.toml"), "w") as f:
        f.write("\n".join(lines))

    # titles and unique slugs first, so bodies can link to any article
    n = a.articles
    titles, slugs = make_titles(rng, n)
    covers = cover_lines(a, out, n)

    cat_keys = [c[0] for c in TOPICS]
    child_keys = {c[0]: [ch[0] for ch in c[4]] for c in TOPICS}
    all_children = [(c[0], ch[0]) for c in TOPICS for ch in c[4] if ch[0] != "other"]
    body = Body(rng)
    start = _dt.date(2024, 9, 12)
    adir = os.path.join(out, "articles")
    sponsored = {}
    descs = ["A gentle, practical guide", "A short, science-informed introduction",
             "Step-by-step instructions and honest advice", "Everything you need to begin",
             "A calm walkthrough with simple exercises"]
    for i in range(n):
        title, slug = titles[i], slugs[i]
        date = start + _dt.timedelta(days=rng.randrange(0, 640))
        author = authors[rng.randrange(len(authors))]["name"]
        ncat = 2 if rng.random() < 0.10 else 1
        cats = rng.sample(cat_keys, ncat)
        special = rng.random()
        ent_lines = []
        for j, ck in enumerate(cats):
            ent_lines.append(f"  - category: {ck}")
            if j == 0 and 0.05 <= special < 0.08:
                continue  # entity with no subcategories -> filed under other
            kids = child_keys[ck]
            nsub = 2 if rng.random() < 0.12 else 1
            if j == 0 and special < 0.05:
                # a subcategory key that belongs to another category -> filed under other
                foreign = [ch for (c, ch) in all_children if c != ck]
                subs = [foreign[rng.randrange(len(foreign))]]
            else:
                subs = rng.sample(kids, nsub)
            ent_lines.append("    subcategories:")
            for sk in subs:
                ent_lines.append(f"      - subcategory: {sk}")
                k = rng.choice((0, 1, 1, 2))
                ss = rng.sample(SUBSUB, k)
                ent_lines.append("        subsubcategories: [" + ", ".join(yq(x) for x in ss) + "]")
        desc = f"{rng.choice(descs)}: {title}."
        md = body.build(rng.randint(600, 1100), slugs)
        fm = ["---", f"title: {yq(title)}", f"slug: {slug}", f"date: {date.isoformat()}",
              f"author: {yq(author)}", f"description: {yq(desc)}"] + covers[i] + ["entities:"] + ent_lines + ["---", ""]
        with open(os.path.join(adir, slug + ".md"), "w") as f:
            f.write("\n".join(fm))
            f.write(md)
        if rng.random() < 0.05:
            links = []
            for _ in range(rng.randint(1, 3)):
                p = rng.randint(1, 999)
                links.append(f'<a href="https://partner{p}.example/">Partner resource {p}</a>')
            sponsored[f"/articles/{slug}"] = links

    with open(os.path.join(out, "data", "sponsored.json"), "w") as f:
        json.dump({"sapeLinks": sponsored,
                   "sapeNewUrl": '<a href="https://partner-new.example/">Recommended: mindful living tools</a>'},
                  f, indent=1, ensure_ascii=False)
        f.write("\n")

    pages = {
        "about-us": ("About Us", "Stillpoint is a small, independent publication about guided meditation "
                     "and mindfulness. Our writers are teachers, coaches, clinicians and people who simply "
                     "practise every day.\n\n## Our mission\n\nTo make calm **practical**: short, honest, "
                     "evidence-informed articles you can use today.\n\n## Contact\n\nWrite to "
                     "[hello@stillpoint.example](mailto:hello@stillpoint.example).\n"),
        "privacy-policy": ("Privacy Policy", "We collect as little as possible.\n\n## What we collect\n\n"
                           "- Anonymous, aggregated page views\n- Nothing you type into search leaves your "
                           "browser\n\n## Cookies\n\nWe do not set advertising cookies.\n"),
        "terms": ("Terms of Use", "By using this site you agree to these terms.\n\n## Content\n\n"
                  "Articles are for information only and are *not* medical advice.\n\n## Links\n\n"
                  "Sponsored links are marked as such.\n"),
    }
    for name, (title, text) in pages.items():
        with open(os.path.join(out, "pages", name + ".md"), "w") as f:
            f.write(f"---\ntitle: {yq(title)}\n---\n{text}")
    with open(os.path.join(out, "static", "icons", f"{site_id}-logo-small.png"), "wb") as f:
        f.write(make_png())
    print(f"wrote {n} articles to {out} in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
