import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, rustBytes, rustString as s } from '../quote/literals.js';
import { STANDARD_METHODS } from '../shared.js';

function render(req: CodeRequest): string {
  const body = req.body;
  let pre = '';
  const method = STANDARD_METHODS.includes(req.method) ? `reqwest::Method::${req.method}` : `reqwest::Method::from_bytes(${rustBytes(Buffer.from(req.method))})?`;
  let chain = `    let response = client\n        .request(${method}, ${s(req.url)})\n`;
  for (const h of req.headers) chain += `        .header(${s(h.name)}, ${s(h.value)})\n`;
  if (body.kind === 'text') chain += `        .body(${s(body.text)})\n`;
  else if (body.kind === 'binary') chain += `        .body(${rustBytes(body.bytes)}.to_vec())\n`;
  else if (body.kind === 'multipart') {
    pre += '    let form = reqwest::multipart::Form::new()\n';
    for (const p of body.parts) {
      if (p.file) {
        let part = `reqwest::multipart::Part::bytes(std::fs::read(${s(p.file.path)})?).file_name(${s(p.file.fileName)})`;
        if (p.contentType) part += `.mime_str(${s(p.contentType)})?`;
        pre += `        .part(${s(p.name)}, ${part})\n`;
      } else if (p.contentType) {
        pre += `        .part(${s(p.name)}, reqwest::multipart::Part::text(${s(p.value ?? '')}).mime_str(${s(p.contentType)})?)\n`;
      } else pre += `        .text(${s(p.name)}, ${s(p.value ?? '')})\n`;
    }
    pre = pre.replace(/\n$/, ';\n\n');
    chain += '        .multipart(form)\n';
  }
  chain += '        .send()\n        .await?;\n';
  const features = body.kind === 'multipart' ? 'features = ["multipart"]' : '';
  return (
    commentLines(req.comments, '//') +
    `// Cargo.toml: reqwest = { version = "0.12"${features ? `, ${features}` : ''} }, tokio = { version = "1", features = ["full"] }\n\n` +
    '#[tokio::main]\nasync fn main() -> Result<(), Box<dyn std::error::Error>> {\n    let client = reqwest::Client::new();\n' +
    pre +
    chain +
    '\n    println!("{}", response.status().as_u16());\n    println!("{}", response.text().await?);\n    Ok(())\n}\n'
  );
}

export const rustTarget: Target = {
  id: 'rust/reqwest',
  lang: 'rust',
  lib: 'reqwest',
  language: 'Rust',
  library: 'reqwest (tokio)',
  tool: 'reqwest',
  platform: 'Rust 2021, tokio',
  fileName: 'main.rs',
  rules: {
    repeatedHeaders: 'keep',
    decompresses: false,
    noBodyWith: [],
    addsHeaders: ['accept'],
  },
  render,
};
