// Sample props for every template and the site data, shaped exactly like the builder's output.
import type {
  ArticleCard,
  ArticleProps,
  AuthorProps,
  AuthorsProps,
  ErrorProps,
  HomeProps,
  InfoProps,
  ListingProps,
  Picture,
  SiteData,
  SitemapProps,
  TemplateName,
  TemplateProps,
  TopicNode,
} from '../protocol';

function topic(key: string, slug: string, title: string, href: string, children: TopicNode[] = []): TopicNode {
  return { key, slug, title, description: `${title} description`, href, children };
}

const sleepChildren = [
  topic(
    'guidedMeditationForSleep',
    'guided-meditation-for-sleep',
    '🛌 Guided Meditation for Sleep',
    '/enhance-sleep-guided-meditation/guided-meditation-for-sleep',
  ),
  topic(
    'sleepHygienePractices',
    'sleep-hygiene-practices',
    '🧼 Sleep Hygiene Practices',
    '/enhance-sleep-guided-meditation/sleep-hygiene-practices',
  ),
  topic('other', 'other', '🌙 Other', '/enhance-sleep-guided-meditation/other'),
];

const focusChildren = [
  topic(
    'meditationForFocus',
    'meditation-for-focus',
    '🎯 Meditation for Focus',
    '/focus-and-productivity/meditation-for-focus',
  ),
  topic('other', 'other', '✨ Other', '/focus-and-productivity/other'),
];

export const site: SiteData = {
  id: 'stillpoint',
  brand: 'Stillpoint',
  url: 'https://stillpoint.example',
  description: 'Guided meditations and mindfulness articles written by experts.',
  logo: '/icons/stillpoint-logo-small.png',
  contactEmail: 'hello@stillpoint.example',
  social: [
    { label: 'Video', href: 'https://www.youtube.com/@stillpoint', icon: 'video' },
    { label: 'Social feed', href: 'https://x.com/stillpoint', icon: 'feed' },
    { label: 'Photos', href: 'https://www.instagram.com/stillpoint', icon: 'photo' },
  ],
  footer: {
    titles: { categories: 'Categories', info: 'Info', contacts: 'Contacts', mail: 'Mail' },
    links: [
      { label: 'Authors', href: '/authors' },
      { label: 'About us', href: '/info/about-us' },
      { label: 'Privacy policy', href: '/privacy-policy' },
      { label: 'Terms', href: '/terms' },
      { label: 'Sitemap', href: '/sitemap' },
    ],
    copyright: '© 2025 Stillpoint',
  },
  headerLinks: [],
  categories: [
    topic(
      'sleepEnhancement',
      'enhance-sleep-guided-meditation',
      '😴 Sleep Enhancement',
      '/enhance-sleep-guided-meditation',
      sleepChildren,
    ),
    topic(
      'focusAndProductivity',
      'focus-and-productivity',
      '🎯 Focus and Productivity',
      '/focus-and-productivity',
      focusChildren,
    ),
    topic('resourcesAndTools', 'resources-and-tools', '🧰 Resources and Tools', '/resources-and-tools'),
  ],
  year: 2025,
  searchManifest: '/search/manifest-abc123.json',
  searchEmptyImage: null,
};

const sleep = { label: '😴 Sleep Enhancement', href: '/enhance-sleep-guided-meditation' };
const sleepGuided = {
  label: '🛌 Guided Meditation for Sleep',
  href: '/enhance-sleep-guided-meditation/guided-meditation-for-sleep',
};
const maya = { label: 'Maya Lindqvist', href: '/authors/maya-lindqvist' };

const WIDTHS = [320, 640, 768, 960, 1280] as const;

/**
 * A raster image as the pipeline gives it: AVIF and WebP renditions at every width up to the
 * source's, a JPEG fallback, a dominant colour and a blurred preview.
 */
export function picture(name: string, width = 1600, height = 1000, alt = ''): Picture {
  const key = name
    .replace(/[^a-z0-9]/g, '')
    .padEnd(16, '0')
    .slice(0, 16);
  const widths = WIDTHS.filter((w) => w <= width);
  return {
    src: `/media/${key}-${widths.at(-1) ?? width}.jpg`,
    width,
    height,
    alt,
    renditions: { stem: `/media/${key}`, widths },
    color: '#7a8f86',
    preview: 'data:image/webp;base64,UklGRhYAAABXRUJQVlA4IAoAAAAwAQCdASoBAAEAAUAmJaQAA3AA/v02aAA=',
  };
}

/** An SVG of the site: no renditions, shown as it is. */
export function svgPicture(src: string, alt = ''): Picture {
  return { src, width: 1200, height: 675, alt, renditions: null, color: null };
}

export function card(n: number): ArticleCard {
  return {
    href: `/articles/article-${n}`,
    title: `A Calm Practice Number ${n}`,
    description: `A gentle practice, number ${n}, for a quieter mind.`,
    date: '2025-03-02',
    author: n % 3 === 0 ? null : maya,
    image: n % 2 === 0 ? picture(`article${n}`) : null,
    readingMinutes: 4 + (n % 6),
    audioMinutes: n % 4 === 0 ? 12 : null,
    topic: { label: '😴 Sleep Enhancement → 🛌 Guided Meditation for Sleep', href: sleepGuided.href },
  };
}

export function cards(from: number, count: number): ArticleCard[] {
  return Array.from({ length: count }, (_, i) => card(from + i));
}

const home: HomeProps = {
  path: '/',
  sponsored: null,
  breadcrumbs: [],
  heading: 'Guided meditations for a calmer you',
  lead: 'Practical guidance on meditation, sleep, stress and focus, written by teachers, coaches and psychologists.',
  titles: { topStories: 'Top Stories', popular: 'Popular Articles', more: 'Have More Awesome Stuff' },
  featured: cards(1, 4),
  topStories: cards(5, 12),
  popular: cards(17, 8),
  more: cards(25, 30),
};

const article: ArticleProps = {
  path: '/articles/body-scan-for-deeper-sleep',
  sponsored: {
    label: 'Partner Links',
    items: ['<a href="https://partner.example" rel="sponsored noopener">Partner</a> and friends'],
  },
  breadcrumbs: [{ label: 'Home', href: '/' }, sleep, sleepGuided],
  title: 'A 10-Minute Body Scan for Deeper Sleep',
  description: 'A gentle body scan to settle the nervous system before bed.',
  date: '2025-03-02',
  author: { ...maya, role: 'Maya Lindqvist, MBSR Teacher' },
  readingMinutes: 7,
  image: { ...picture('bodyscan', 2400, 1600, 'A person resting on a mat in soft light'), position: '50% 40%' },
  audio: { src: '/media/3f2a9c0d1e4b5a67-body-scan.m4a', type: 'audio/mp4', seconds: 725 },
  bodyHtml:
    '<p>Lie down and let the day go.</p><h2 id="arrive">Arrive</h2><p>Notice the breath.</p><h3 id="feet">Feet</h3><p>Start at the toes.</p><h2 id="scan">Scan</h2><p>Move upward slowly.</p><h2 id="rest">Rest</h2><p>Let the whole body rest.</p>',
  toc: [
    { id: 'arrive', text: 'Arrive', level: 2 },
    { id: 'feet', text: 'Feet', level: 3 },
    { id: 'scan', text: 'Scan', level: 2 },
    { id: 'rest', text: 'Rest', level: 2 },
  ],
  related: cards(40, 4),
  topics: [{ category: sleep, subcategory: sleepGuided }],
  tags: [
    { label: 'Body Scan', href: '/enhance-sleep-guided-meditation/guided-meditation-for-sleep/body-scan' },
    { label: 'Yoga Nidra', href: '/enhance-sleep-guided-meditation/guided-meditation-for-sleep/yoga-nidra' },
  ],
  url: 'https://stillpoint.example/articles/body-scan-for-deeper-sleep',
};

function listing(path: string, title: string, children: ListingProps['children']): ListingProps {
  return {
    path: `${path}/page/2`,
    sponsored: null,
    breadcrumbs: [{ label: 'Home', href: '/' }],
    title,
    description: `${title}: articles, practices and guides.`,
    children,
    articles: cards(50, 24),
    total: 60,
    pagination: {
      page: 2,
      pages: 3,
      prev: path,
      next: `${path}/page/3`,
      first: path,
    },
    cover: null,
  };
}

const authors: AuthorsProps = {
  path: '/authors',
  sponsored: null,
  breadcrumbs: [{ label: 'Home', href: '/' }],
  title: 'Meet Our Mindfulness Experts',
  authors: [
    {
      name: 'Maya Lindqvist',
      href: maya.href,
      role: 'Maya Lindqvist, MBSR Teacher',
      summary: 'Maya teaches MBSR.',
      articleCount: 12,
      photo: { ...picture('maya', 800, 800, 'Maya Lindqvist'), position: '50% 30%' },
    },
    {
      name: 'Sam Okafor',
      href: '/authors/sam-okafor',
      role: 'Sam Okafor, Sleep Coach',
      summary: 'Sam coaches sleep.',
      articleCount: 1,
      photo: null,
    },
  ],
};

const author: AuthorProps = {
  path: '/authors/maya-lindqvist',
  sponsored: null,
  breadcrumbs: [
    { label: 'Home', href: '/' },
    { label: 'Authors', href: '/authors' },
  ],
  name: 'Maya Lindqvist',
  role: 'Maya Lindqvist, MBSR Teacher',
  photo: { ...picture('maya', 800, 800, 'Maya Lindqvist'), position: '50% 30%' },
  bioHtml: '<p>Maya is a certified MBSR teacher.</p>',
  articles: cards(80, 5),
  total: 5,
  pagination: { page: 1, pages: 1, prev: null, next: null, first: '/authors/maya-lindqvist' },
};

const info: InfoProps = {
  path: '/info/about-us',
  sponsored: null,
  breadcrumbs: [{ label: 'Home', href: '/' }],
  title: 'About Us',
  bodyHtml: '<p>We write about mindfulness.</p>',
};

const sitemap: SitemapProps = {
  path: '/sitemap',
  sponsored: null,
  breadcrumbs: [{ label: 'Home', href: '/' }],
  title: 'Sitemap',
  categories: [
    {
      category: sleep,
      subcategories: [
        {
          subcategory: sleepGuided,
          subsubcategories: [{ label: 'Body Scan', href: `${sleepGuided.href}/body-scan` }],
        },
      ],
    },
  ],
  authors: [maya],
  pages: [
    { label: 'About Us', href: '/info/about-us' },
    { label: 'Privacy Policy', href: '/privacy-policy' },
  ],
  articles: [
    {
      category: sleep,
      articles: [
        { label: 'A 10-Minute Body Scan for Deeper Sleep', href: '/articles/body-scan-for-sleep' },
        { label: 'A Calm Practice Number 1', href: '/articles/calm-practice-1' },
      ],
    },
    { category: null, articles: [{ label: 'Unfiled Notes', href: '/articles/unfiled-notes' }] },
  ],
  pagination: { page: 1, pages: 1, prev: null, next: null, first: '/sitemap' },
};

const notFound: ErrorProps = {
  path: '/404',
  sponsored: null,
  breadcrumbs: [],
  title: 'Page Not Found',
  heading: 'Page Not Found',
  description:
    "Oops! The page you're looking for doesn't exist. But don't worry, let's get you back to a calm state of mind.",
};

const serverError: ErrorProps = {
  path: '/500',
  sponsored: null,
  breadcrumbs: [],
  title: 'Something Went Wrong',
  heading: 'Something Went Wrong',
  description: 'Something went wrong on our side. Please take a breath and try again in a moment.',
};

export const pageProps: { readonly [Name in TemplateName]: TemplateProps[Name] } = {
  Home: home,
  Article: article,
  Category: listing(
    '/enhance-sleep-guided-meditation',
    '😴 Sleep Enhancement',
    sleepChildren.map((c) => ({ label: c.title, href: c.href })),
  ),
  Subcategory: listing(sleepGuided.href, sleepGuided.label, [
    { label: 'Body Scan', href: `${sleepGuided.href}/body-scan` },
  ]),
  Subsubcategory: listing(`${sleepGuided.href}/body-scan`, 'Body Scan', []),
  Authors: authors,
  Author: author,
  Info: info,
  Sitemap: sitemap,
  NotFound: notFound,
  ServerError: serverError,
};

export const templateNames = Object.keys(pageProps) as TemplateName[];
