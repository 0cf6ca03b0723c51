import Foundation
import GatehouseWire
import Testing
import GatehouseRules

/// The workflow wire types against seed 000 §05–§08's literal JSON, key by key, and the
/// shapes the server sends where the seed shows none.
@Suite struct DatacoveWorkflowWireTests {
    @Test func theInputsOfSection05() throws {
        let inputs = try WireContract.roundTrip([DatacoveWire.WorkflowInput].self, #"""
            [
              {
                "key": "url",
                "label": "Website address",
                "type": "text",
                "placeholder": "https://example.com",
                "validation": { "required": true }
              },
              {
                "key": "document",
                "label": "Document",
                "type": "file",
                "fileOptions": { "accept": ".pdf,.docx", "maxSizeMb": 10, "multiple": false }
              }
            ]
            """#)
        #expect(inputs[0].validation?.required == true && inputs[0].fileOptions == nil && inputs[0].options == nil)
        #expect(inputs[1].fileOptions == .init(accept: ".pdf,.docx", maxSizeMb: 10, multiple: false) && inputs[1].validation == nil)
        // The seed's file error for that input, word for word.
        #expect(WorkflowInputRules.limitMessage(inputs[1].label, inputs[1].fileOptions!) == "Document must be a .pdf or .docx file of at most 10 MB")
    }

    @Test func theErrorEnvelopeOfSection08() throws {
        let envelope = try JSONDecoder().decode(DatacoveWire.ErrorEnvelope.self, from: Data(#"""
            {
              "statusCode": 403,
              "timestamp": "2026-10-02T09:30:00.000Z",
              "path": "/api/workflows/v1/execute",
              "error": {
                "code": "ENTITLEMENT_INACTIVE",
                "message": "Your trial has ended and no active subscription was found for this service."
              }
            }
            """#.utf8))
        #expect(envelope.statusCode == 403 && envelope.timestamp == "2026-10-02T09:30:00.000Z" && envelope.path == "/api/workflows/v1/execute")
        #expect(envelope.error.code == "ENTITLEMENT_INACTIVE")
        #expect(envelope.error.message == "Your trial has ended and no active subscription was found for this service.")
        // The server's 402 carries the balance beside the code.
        let short = try WireContract.roundTrip(DatacoveWire.ErrorEnvelope.self, #"""
            {"statusCode":402,"timestamp":"2026-10-02T09:30:00.000Z","path":"/api/workflows/v1/execute",
             "error":{"statusCode":402,"error":"Payment Required","message":"This workflow costs 5 credits and the wallet holds 3.",
                      "code":"INSUFFICIENT_CREDITS","balance":3}}
            """#)
        #expect(short.error.balance == 3)
    }

    @Test func aCataloguePageAndAWorkflowAsTheServerSendsThem() throws {
        let page = try WireContract.roundTrip(DatacoveWire.Page<DatacoveWire.Workflow>.self, #"""
            {"data":[{"id":"wf-sec-001","name":"Security scan","description":"Checks a website","category":"security",
                      "featured":true,"credits":5,"responseType":"event","gated":true}],
             "meta":{"page":1,"pageSize":20,"total":1,"totalPages":1}}
            """#)
        #expect(page.data[0].inputs == nil && page.meta.totalPages == 1)
        let select = try WireContract.roundTrip(DatacoveWire.WorkflowInput.self, #"""
            {"key":"depth","label":"Depth","type":"select","options":[{"value":"fast","label":"Fast"}],
             "validation":{"required":true,"minLength":1,"maxLength":10,"pattern":"[a-z]+","min":1,"max":2.5}}
            """#)
        #expect(select.validation?.max == 2.5 && select.options?.first?.value == "fast")
    }

    @Test func theTwoKindsOfExecuteAnswerAndAReport() throws {
        let sync = try WireContract.roundTrip(DatacoveWire.ExecuteResponse.self, #"""
            {"status":"succeeded","result":{"valid":true},"creditsCharged":0}
            """#)
        #expect(sync.eventId == nil)
        let event = try WireContract.roundTrip(DatacoveWire.ExecuteResponse.self, #"""
            {"eventId":"evt_01a2","status":"queued","creditsCharged":1}
            """#)
        #expect(event.eventId == "evt_01a2")
        let report = try WireContract.roundTrip(DatacoveWire.Report.self, #"""
            {"eventId":"evt_01a2","workflowId":"wf-doc-001","status":"timed_out","result":null,
             "error":{"code":"TIMED_OUT","message":"The run did not finish in time."},"creditsCharged":1,"creditsRefunded":1,
             "createdAt":"2026-10-02T09:30:00.000Z","startedAt":"2026-10-02T09:30:01.000Z","finishedAt":"2026-10-02T09:40:01.000Z"}
            """#)
        #expect(report.isFinished && report.result == nil)
        let queued = try WireContract.roundTrip(DatacoveWire.Report.self, #"""
            {"eventId":"evt_01a3","workflowId":"wf-doc-001","status":"queued","result":null,"error":null,"creditsCharged":1,
             "creditsRefunded":0,"createdAt":"2026-10-02T09:30:00.000Z","startedAt":null,"finishedAt":null}
            """#)
        #expect(!queued.isFinished)
    }

    @Test func theExecuteRequestBody() throws {
        let body = try WireContract.roundTrip(DatacoveWire.ExecuteRequest.self, #"{"id":"wf-sec-001","input":{"url":"https://example.com"}}"#)
        #expect(body.input["url"] == .string("https://example.com"))
    }
}
