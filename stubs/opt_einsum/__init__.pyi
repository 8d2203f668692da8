from opt_einsum.contract import contract_path as contract_path
