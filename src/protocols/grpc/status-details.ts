/**
 * Rich error details: the `grpc-status-details-bin` trailer is a `google.rpc.Status` whose
 * `details` are Anys of the `google.rpc` error types (BadRequest, ErrorInfo, RetryInfo…). They are
 * shown decoded, as grpcurl shows them: `{"@type": "type.googleapis.com/google.rpc.BadRequest",
 * "fieldViolations": [...]}`; a detail of a type not known here keeps its bytes as base64 `value`.
 */
import * as protoLoader from '@grpc/proto-loader';
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { LOADER_OPTIONS } from './descriptors.js';
import type { TypeDescriptor } from './skeleton.js';
import { toProto3Json } from './well-known.js';
import { malformation } from './wire-check.js';

export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

const string = (id: number) => ({ type: 'string', id });
const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });

/** google/rpc/status.proto and error_details.proto, and a method only there so proto-loader builds a reader for Status. */
const GOOGLE_RPC = {
  nested: {
    google: {
      nested: {
        rpc: {
          nested: {
            Status: { fields: { code: { type: 'int32', id: 1 }, message: string(2), details: repeated('google.protobuf.Any', 3) } },
            ErrorInfo: { fields: { reason: string(1), domain: string(2), metadata: { keyType: 'string', type: 'string', id: 3 } } },
            RetryInfo: { fields: { retryDelay: { type: 'google.protobuf.Duration', id: 1 } } },
            DebugInfo: { fields: { stackEntries: repeated('string', 1), detail: string(2) } },
            QuotaFailure: { fields: { violations: repeated('Violation', 1) }, nested: { Violation: { fields: { subject: string(1), description: string(2) } } } },
            PreconditionFailure: { fields: { violations: repeated('Violation', 1) }, nested: { Violation: { fields: { type: string(1), subject: string(2), description: string(3) } } } },
            BadRequest: { fields: { fieldViolations: repeated('FieldViolation', 1) }, nested: { FieldViolation: { fields: { field: string(1), description: string(2) } } } },
            RequestInfo: { fields: { requestId: string(1), servingData: string(2) } },
            ResourceInfo: { fields: { resourceType: string(1), resourceName: string(2), owner: string(3), description: string(4) } },
            Help: { fields: { links: repeated('Link', 1) }, nested: { Link: { fields: { description: string(1), url: string(2) } } } },
            LocalizedMessage: { fields: { locale: string(1), message: string(2) } },
            StatusReader: { methods: { Read: { requestType: 'Status', responseType: 'Status' } } },
          },
        },
        protobuf: {
          nested: {
            Any: { fields: { type_url: string(1), value: { type: 'bytes', id: 2 } } },
            Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
          },
        },
      },
    },
  },
};

let reader: { definition: PackageDefinition; read: MethodDefinition<object, object> } | undefined;

/** The trailer's details as JSON, or undefined when there is no such trailer or it does not decode. */
export function statusDetails(trailer: Buffer | string | undefined): unknown[] | undefined {
  if (trailer === undefined) return undefined;
  const bytes = typeof trailer === 'string' ? Buffer.from(trailer, 'base64') : trailer;
  if (!reader) {
    const definition = protoLoader.fromJSON(GOOGLE_RPC as unknown as Parameters<typeof protoLoader.fromJSON>[0], LOADER_OPTIONS);
    // proto-loader names a type of another package relative to this one (`protobuf.Duration`):
    // written in full, so the well-known types (RetryInfo's Duration) are shown in their JSON forms.
    for (const entry of Object.values(definition)) {
      for (const field of (entry as { type?: TypeDescriptor }).type?.field ?? []) if (field.typeName?.startsWith('protobuf.')) field.typeName = `.google.${field.typeName}`;
    }
    reader = { definition, read: (definition['google.rpc.StatusReader'] as Record<string, MethodDefinition<object, object>>).Read! };
  }
  // protobufjs reads leniently (a field sent as a varint became an empty string): bytes that are not a well-formed Status are not shown.
  if (malformation(reader.definition, (reader.definition['google.rpc.Status'] as { type: TypeDescriptor }).type, bytes)) return undefined;
  let status: { details?: unknown[] };
  try {
    status = reader.read.responseDeserialize(bytes) as { details?: unknown[] };
  } catch {
    return undefined;
  }
  const anyType = { name: 'Status', field: [{ name: 'details', type: 'TYPE_MESSAGE', typeName: '.google.protobuf.Any', label: 'LABEL_REPEATED' }] } as TypeDescriptor;
  const shown = toProto3Json(reader.definition, anyType, { details: status.details ?? [] }) as { details: unknown[] };
  // An Any of a type not known here: its type URL and bytes, in the proto3 JSON shape.
  return shown.details.map((d) => {
    const any = d as { typeUrl?: string; type_url?: string; value?: string; '@type'?: string };
    return any['@type'] !== undefined ? d : { '@type': any.typeUrl ?? any.type_url ?? '', value: any.value ?? '' };
  });
}
