package rules

// The ClusterConfig, its metadata and the parts of its spec other than the
// network. k0s decodes the whole document with DisallowUnknownFields
// (clusterconfig_types.go:358-359); spec.api, spec.storage and spec.images
// have UnmarshalJSON methods of their own and are lenient.

var clusterConfigType = &typ{
	name:   "v1beta1.ClusterConfig",
	source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:60",
	fields: []field{
		// metav1.TypeMeta, inline (clusterconfig_types.go:61)
		str("apiVersion"), str("kind"),
		object("metadata", objectMetaType),
		object("spec", clusterSpecType),
		object("status", &typ{name: "v1beta1.ClusterConfigStatus", source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:49"}),
	},
}

// objectMetaType is metav1.ObjectMeta of k8s.io/apimachinery v0.36.3, the
// metadata of clusterconfig_types.go:63.
var objectMetaType = &typ{
	name:   "v1.ObjectMeta",
	source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:63",
	fields: []field{
		str("name"), str("generateName"), str("namespace"), str("selfLink"), str("uid"),
		str("resourceVersion"), number("generation", kInt64),
		fieldOf("creationTimestamp", kTime), fieldOf("deletionTimestamp", kTime),
		number("deletionGracePeriodSeconds", kInt64),
		strMap("labels"), strMap("annotations"),
		listOf("ownerReferences", &typ{name: "v1.OwnerReference", source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:63", fields: []field{
			str("apiVersion"), str("kind"), str("name"), str("uid"), boolean("controller"), boolean("blockOwnerDeletion"),
		}}),
		strs("finalizers"),
		listOf("managedFields", &typ{name: "v1.ManagedFieldsEntry", source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:63", fields: []field{
			str("manager"), str("operation"), str("apiVersion"), fieldOf("time", kTime),
			str("fieldsType"), anything("fieldsV1"), str("subresource"),
		}}),
	},
}

var clusterSpecType = &typ{
	name:   "v1beta1.ClusterSpec",
	source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:32",
	fields: []field{
		object("api", apiType),
		object("controllerManager", argsType("v1beta1.ControllerManagerSpec", "pkg/apis/k0s/v1beta1/clusterconfig_types.go:247")),
		object("scheduler", argsType("v1beta1.SchedulerSpec", "pkg/apis/k0s/v1beta1/clusterconfig_types.go:267")),
		object("storage", storageType),
		object("network", networkType),
		listOf("workerProfiles", &typ{name: "v1beta1.WorkerProfile", source: "pkg/apis/k0s/v1beta1/workerprofile.go:40", fields: []field{
			str("name"), anything("values"),
		}}),
		object("telemetry", &typ{name: "v1beta1.ClusterTelemetry", source: "pkg/apis/k0s/v1beta1/telemetry.go:11", fields: []field{
			boolean("enabled"),
		}}),
		object("installConfig", &typ{name: "v1beta1.InstallSpec", source: "pkg/apis/k0s/v1beta1/clusterconfig_types.go:238", fields: []field{
			object("users", &typ{name: "v1beta1.SystemUser", source: "pkg/apis/k0s/v1beta1/system.go:9", fields: []field{
				str("etcdUser"), str("kineUser"), str("konnectivityUser"), str("kubeAPIserverUser"), str("kubeSchedulerUser"),
			}}),
		}}),
		object("images", imagesType),
		object("extensions", extensionsType),
		object("konnectivity", &typ{name: "v1beta1.KonnectivitySpec", source: "pkg/apis/k0s/v1beta1/konnectivity.go:14", fields: []field{
			number("adminPort", kInt32), number("agentPort", kInt32), str("externalAddress"),
		}}),
		listOf("featureGates", &typ{name: "v1beta1.FeatureGate", source: "pkg/apis/k0s/v1beta1/feature_gates.go:77", fields: []field{
			str("name"), boolean("enabled"), strs("components"),
		}}),
		object("metricsServer", &typ{name: "v1beta1.MetricsServer", source: "pkg/apis/k0s/v1beta1/metricsserver.go:12", fields: []field{
			listOf("patches", patchType),
		}}),
	},
}

func argsType(name, source string) *typ {
	return &typ{name: name, source: source, fields: []field{strMap("extraArgs"), strs("rawArgs")}}
}

var caType = &typ{name: "v1beta1.CA", source: "pkg/apis/k0s/v1beta1/cert.go:13", fields: []field{
	duration("expiresAfter"), duration("certificatesExpireAfter"),
}}

// apiType: lenient (api.go:189).
var apiType = &typ{
	name:    "v1beta1.APISpec",
	source:  "pkg/apis/k0s/v1beta1/api.go:25",
	lenient: true,
	fields: []field{
		str("address"), boolean("onlyBindToAddress"), str("externalAddress"),
		strMap("extraArgs"), strs("rawArgs"),
		number("k0sApiPort", kInt), number("port", kInt),
		strs("sans"), object("ca", caType),
	},
}

// storageType: lenient (storage.go:91).
var storageType = &typ{
	name:    "v1beta1.StorageSpec",
	source:  "pkg/apis/k0s/v1beta1/storage.go:28",
	lenient: true,
	fields: []field{
		object("etcd", &typ{name: "v1beta1.EtcdConfig", source: "pkg/apis/k0s/v1beta1/storage.go:137", fields: []field{
			object("externalCluster", &typ{name: "v1beta1.ExternalCluster", source: "pkg/apis/k0s/v1beta1/storage.go:156", fields: []field{
				strs("endpoints"), str("etcdPrefix"), str("caFile"), str("clientCertFile"), str("clientKeyFile"),
			}}),
			str("peerAddress"), strMap("extraArgs"), strs("rawArgs"), object("ca", caType),
		}}),
		object("kine", &typ{name: "v1beta1.KineConfig", source: "pkg/apis/k0s/v1beta1/storage.go:49", fields: []field{
			str("dataSource"), strMap("extraArgs"), strs("rawArgs"),
		}}),
		str("type"),
	},
}

var extensionsType = &typ{
	name:   "v1beta1.ClusterExtensions",
	source: "pkg/apis/k0s/v1beta1/extensions.go:18",
	fields: []field{
		object("storage", &typ{name: "v1beta1.StorageExtension", source: "pkg/apis/k0s/v1beta1/extensions.go:27", fields: []field{
			str("type"), boolean("create_default_storage_class"),
		}}),
		object("helm", &typ{name: "v1beta1.HelmExtensions", source: "pkg/apis/k0s/v1beta1/extensions.go:35", fields: []field{
			number("concurrencyLevel", kInt),
			listOf("repositories", &typ{name: "v1beta1.Repository", source: "pkg/apis/k0s/v1beta1/extensions.go:163", fields: []field{
				str("name"), str("url"), boolean("insecure"), str("caFile"), str("certFile"), str("keyfile"),
				str("username"), str("password"),
			}}),
			listOf("charts", &typ{name: "v1beta1.Chart", source: "pkg/apis/k0s/v1beta1/extensions.go:91", fields: []field{
				str("name"), str("chartname"), str("version"), str("values"), str("namespace"),
				fieldOf("timeout", kCompatDuration), boolean("forceUpgrade"), number("order", kInt),
			}}),
		}}),
	},
}

var imageSpecType = &typ{name: "v1beta1.ImageSpec", source: "pkg/apis/k0s/v1beta1/images.go:21", fields: []field{
	str("image"), str("version"),
}}

// imagesType: lenient (images.go:75).
var imagesType = &typ{
	name:    "v1beta1.ClusterImages",
	source:  "pkg/apis/k0s/v1beta1/images.go:56",
	lenient: true,
	fields: []field{
		object("konnectivity", imageSpecType), object("pushgateway", imageSpecType),
		object("metricsserver", imageSpecType), object("kubeproxy", imageSpecType),
		object("coredns", imageSpecType), object("pause", imageSpecType),
		object("windows", &typ{name: "v1beta1.WindowsImageSpec", source: "pkg/apis/k0s/v1beta1/images.go:143", fields: []field{
			object("kubeproxy", imageSpecType), object("pause", imageSpecType),
		}}),
		object("calico", &typ{name: "v1beta1.CalicoImageSpec", source: "pkg/apis/k0s/v1beta1/images.go:158", fields: []field{
			object("cni", imageSpecType), object("node", imageSpecType), object("kubecontrollers", imageSpecType),
			object("windows", &typ{name: "v1beta1.CalicoWindowsImageSpec", source: "pkg/apis/k0s/v1beta1/images.go:176", fields: []field{
				object("cni", imageSpecType), object("node", imageSpecType),
			}}),
		}}),
		object("kuberouter", &typ{name: "v1beta1.KubeRouterImageSpec", source: "pkg/apis/k0s/v1beta1/images.go:191", fields: []field{
			object("cni", imageSpecType), object("cniInstaller", imageSpecType),
		}}),
		str("repository"), str("default_pull_policy"),
	},
}

var patchType = &typ{
	name:   "v1beta1.Patch",
	source: "pkg/apis/k0s/v1beta1/patches.go:17",
	fields: []field{
		object("target", &typ{name: "v1beta1.PatchTarget", source: "pkg/apis/k0s/v1beta1/patches.go:28", fields: []field{
			str("kind"), str("name"), str("namespace"),
		}}),
		object("patch", &typ{name: "v1beta1.PatchSpec", source: "pkg/apis/k0s/v1beta1/patches.go:42", fields: []field{
			str("type"), str("content"),
		}}),
	},
}
