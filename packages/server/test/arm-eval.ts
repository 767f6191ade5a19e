// A small evaluator of ARM template expressions, for the functions infra/*.json outputs use, so a test can hold what a
// template's output would be once deployed (with given parameters, subscription and resource group) against the service.

/** Where the evaluated template is deployed. */
export interface Deployment {
  subscriptionId: string;
  resourceGroup: string;
  location: string;
  parameters: Record<string, unknown>;
}

type Token =
  | { kind: 'str'; value: string }
  | { kind: 'num'; value: number }
  | { kind: 'id'; value: string }
  | { kind: 'punct'; value: string };

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) i++;
    else if (ch === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Error(`unterminated string in ${text}`);
        if (text[i] === "'" && text[i + 1] === "'") {
          value += "'";
          i += 2;
        } else if (text[i] === "'") {
          i++;
          break;
        } else value += text[i++];
      }
      out.push({ kind: 'str', value });
    } else if (/[0-9-]/.test(ch)) {
      const m = /^-?\d+/.exec(text.slice(i))!;
      out.push({ kind: 'num', value: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      out.push({ kind: 'id', value: m[0] });
      i += m[0].length;
    } else if ('(),.[]'.includes(ch)) {
      out.push({ kind: 'punct', value: ch });
      i++;
    } else throw new Error(`unexpected '${ch}' in ${text}`);
  }
  return out;
}

/** The resource id of a type and its names, as resourceId() builds it in the deployment's resource group. */
function resourceId(d: Deployment, type: string, names: string[]): string {
  const [namespace, ...types] = type.split('/');
  if (types.length !== names.length) throw new Error(`resourceId('${type}') takes ${types.length} names`);
  const path = types.map((t, i) => `${t}/${names[i]}`).join('/');
  return `/subscriptions/${d.subscriptionId}/resourceGroups/${d.resourceGroup}/providers/${namespace}/${path}`;
}

/** Evaluates `value` of a template the way resource manager would at deployment (the functions used by infra/). */
export function evaluate(template: any, value: unknown, d: Deployment): unknown {
  if (typeof value !== 'string' || !value.startsWith('[') || value.startsWith('[[')) return value;
  const toks = tokens(value.slice(1, -1));
  let at = 0;
  const next = () => toks[at++];
  const expect = (p: string) => {
    const t = next();
    if (t?.kind !== 'punct' || t.value !== p) throw new Error(`expected '${p}' in ${value}`);
  };
  const call = (name: string, args: unknown[]): unknown => {
    const str = (i: number) => String(args[i]);
    switch (name) {
      case 'parameters': {
        const p = template.parameters[str(0)];
        if (!p) throw new Error(`unknown parameter ${str(0)}`);
        return str(0) in d.parameters ? d.parameters[str(0)] : evaluate(template, p.defaultValue, d);
      }
      case 'variables':
        return evaluate(template, template.variables[str(0)], d);
      case 'format':
        return str(0).replace(/\{(\d+)\}/g, (_, n) => String(args[Number(n) + 1]));
      case 'concat':
        return args.map(String).join('');
      case 'createObject': {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < args.length; i += 2) o[str(i)] = args[i + 1];
        return o;
      }
      case 'resourceId':
        return resourceId(d, str(0), args.slice(1).map(String));
      case 'resourceGroup':
        return { id: `/subscriptions/${d.subscriptionId}/resourceGroups/${d.resourceGroup}`, name: d.resourceGroup, location: d.location };
      case 'subscription':
        return { id: `/subscriptions/${d.subscriptionId}`, subscriptionId: d.subscriptionId };
      case 'string':
        return String(args[0]);
      default:
        throw new Error(`the test evaluator does not know ${name}()`);
    }
  };
  const expr = (): unknown => {
    const t = next();
    if (!t) throw new Error(`unexpected end of ${value}`);
    let result: unknown;
    if (t.kind === 'str' || t.kind === 'num') result = t.value;
    else if (t.kind === 'id') {
      expect('(');
      const args: unknown[] = [];
      if (!(toks[at]?.kind === 'punct' && toks[at]!.value === ')')) {
        args.push(expr());
        while (toks[at]?.kind === 'punct' && toks[at]!.value === ',') {
          at++;
          args.push(expr());
        }
      }
      expect(')');
      result = call(t.value, args);
    } else throw new Error(`unexpected '${t.value}' in ${value}`);
    while (toks[at]?.kind === 'punct' && toks[at]!.value === '.') {
      at++;
      const prop = next();
      if (prop?.kind !== 'id') throw new Error(`expected a property in ${value}`);
      result = (result as Record<string, unknown>)[prop.value];
    }
    return result;
  };
  const result = expr();
  if (at !== toks.length) throw new Error(`trailing text in ${value}`);
  return result;
}
