public enum GatehouseTestingModule {}
