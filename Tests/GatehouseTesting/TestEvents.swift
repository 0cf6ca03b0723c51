// Tests that import GatehouseTesting also get the events they await.
@_exported import GatehouseTestEvents
