DROP TABLE wallet_adapters;
