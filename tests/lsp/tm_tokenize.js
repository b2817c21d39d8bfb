// Tokenizes lines with the VS Code extension's TextMate grammar, as VS Code
// does (vscode-textmate with the Oniguruma regex engine). Prints, for each
// line, the [text, innermost scope] of every token as JSON.
//   node tm_tokenize.js GRAMMAR.json NODE_MODULES < lines
const fs = require('fs');
const path = require('path');
const [grammarPath, modules] = process.argv.slice(2);
const vsctm = require(path.join(modules, 'vscode-textmate'));
const oniguruma = require(path.join(modules, 'vscode-oniguruma'));

async function main() {
  const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma', 'release', 'onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath),
  });
  const grammar = await registry.loadGrammar('source.pgconf');
  const lines = fs.readFileSync(0, 'utf8').split('\n');
  let stack = vsctm.INITIAL;
  const out = [];
  for (const line of lines) {
    const result = grammar.tokenizeLine(line, stack);
    out.push(result.tokens.map((t) => [line.substring(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]]));
    stack = result.ruleStack;
  }
  process.stdout.write(JSON.stringify(out));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
