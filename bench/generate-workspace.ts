/**
 * A generated workspace for the CLI benchmarks (bench/ls.ts, bench/one-request.ts): `requests`
 * requests in areas of 50 folders of 20 requests, with folder auth, headers, variables and scripts
 * so that inheritance has work to do. Every request sends GET {{baseUrl}}/things/F/R.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

const PER_FOLDER = 20;
const FOLDERS_PER_AREA = 50;

export async function generateWorkspace(root: string, requests: number, baseUrl: string): Promise<void> {
  await fs.mkdir(root, { recursive: true });
  await fs.writeFile(path.join(root, 'ferry.yaml'), `version: 1\nid: bench-${requests}\nname: Bench ${requests}\nvariables:\n  - key: baseUrl\n    value: "${baseUrl}"\n`);
  await fs.mkdir(path.join(root, 'environments'), { recursive: true });
  await fs.writeFile(path.join(root, 'environments', 'local.yaml'), `name: local\nvariables:\n  - key: token\n    value: t0\n`);
  const folders = Math.ceil(requests / PER_FOLDER);
  let written = 0;
  for (let f = 0; f < folders; f++) {
    const areaDir = path.join(root, 'requests', `Area ${Math.floor(f / FOLDERS_PER_AREA)}`);
    const dir = path.join(areaDir, `Folder ${f}`);
    await fs.mkdir(dir, { recursive: true });
    if (f % FOLDERS_PER_AREA === 0) {
      await fs.writeFile(path.join(areaDir, '_folder.yaml'), `name: Area ${Math.floor(f / FOLDERS_PER_AREA)}\nauth:\n  type: bearer\n  token: "{{token}}"\nheaders:\n  - key: X-Area\n    value: "${Math.floor(f / FOLDERS_PER_AREA)}"\n`);
    }
    await fs.writeFile(path.join(dir, '_folder.yaml'), `name: Folder ${f}\nseq: ${f}\nheaders:\n  - key: X-Folder\n    value: "${f}"\nscripts:\n  preRequest: |\n    pm.variables.set("stamp", "f${f}");\n`);
    const count = Math.min(PER_FOLDER, requests - written);
    await Promise.all(
      Array.from({ length: count }, (_, r) =>
        fs.writeFile(
          path.join(dir, `Request ${r}.yaml`),
          [
            `name: Request ${r}`,
            `seq: ${r}`,
            'method: GET',
            `url: "{{baseUrl}}/things/${f}/${r}"`,
            'headers:',
            '  - key: Accept',
            '    value: application/json',
            'scripts:',
            '  postResponse: |',
            '    pm.test("ok", () => pm.response.to.have.status(200));',
            '',
          ].join('\n'),
        ),
      ),
    );
    written += count;
  }
}
