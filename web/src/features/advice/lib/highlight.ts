import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';

// Only the languages answers are highlighted in (SPEC §9: markdown, json, javascript and shell): the
// chat's chunk carries four grammars, not highlight.js's two hundred. "shell" is a script here, as
// the fences of answers mean it, so it takes the bash grammar (highlight.js's own "shell" is a
// console session with prompts).
hljs.registerLanguage('markdown', markdown);
hljs.registerLanguage('json', json);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('bash', bash);
hljs.registerAliases(['shell', 'console', 'shellsession'], { languageName: 'bash' });

/**
 * The code as highlight.js marks it up (HTML with the code's own text escaped), or null when the
 * fence names a language that is not highlighted: the code then shows as plain text.
 */
export function highlight(code: string, fence: string | undefined): string | null {
  if (!fence || !hljs.getLanguage(fence.toLowerCase())) return null;
  return hljs.highlight(code, { language: fence.toLowerCase(), ignoreIllegals: true }).value;
}
