/** The ping payload's `zen`: one of a few design aphorisms, picked at random (seed: "random text"). */
const SAYINGS = [
  "Design for failure.",
  "Keep it logically awesome.",
  "Responsive is better than fast.",
  "Anything added dilutes everything else.",
  "Practicality beats purity.",
  "Approachable is better than simple.",
  "Mind your words, they are important.",
  "Speak like a human.",
  "Half measures are as bad as nothing at all.",
  "Encourage flow.",
  "Non-blocking is better than blocking.",
  "Favor focus over features.",
  "Avoid administrative distraction.",
  "It's not fully shipped until it's fast.",
];

export function zen(random: () => number = Math.random): string {
  return SAYINGS[Math.floor(random() * SAYINGS.length)]!;
}
